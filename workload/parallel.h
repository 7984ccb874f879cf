#pragma once
// Splitting work over the machine's cores without a thread pool: every caller here runs a
// handful of large, independent pieces, so a thread per piece costs nothing that matters.
#include <cstdint>
#include <functional>

namespace ktune {

// Threads worth using for `items` units of work when each thread should get at least
// `min_items_per_thread` of them (small inputs stay on the calling thread).
int worker_count(int64_t items, int64_t min_items_per_thread);

// Runs task(i) for every i in [0, tasks) on up to `threads` threads, taking tasks in order
// as threads free up; the first exception thrown by a task is rethrown here. The threads
// share the caller's cancellation (workload/cancellation.h) and start no task once it is set.
void parallel_for(int tasks, int threads, const std::function<void(int)>& task);

// [begin, end) of part `part` when `total` items are cut into `parts` near-equal parts.
inline int64_t part_begin(int64_t total, int parts, int part) { return total * part / parts; }

}  // namespace ktune
