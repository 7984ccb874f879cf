#include "workload/radix_sort.h"

#include <array>

#include "workload/parallel.h"

namespace ktune {
namespace {

constexpr int kDigitBits = 8;
constexpr size_t kBuckets = size_t{1} << kDigitBits;

}  // namespace

void radix_sort(std::vector<uint64_t>& keys, int key_bits) {
  const auto n = static_cast<int64_t>(keys.size());
  const int threads = worker_count(n, 1 << 20);
  std::vector<uint64_t> sorted(keys.size());
  std::vector<std::array<size_t, kBuckets>> next(static_cast<size_t>(threads));
  for (int shift = 0; shift < key_bits; shift += kDigitBits) {
    auto digit = [shift](uint64_t key) { return (key >> shift) & (kBuckets - 1); };
    parallel_for(threads, threads, [&](int t) {
      auto& counts = next[t];
      counts.fill(0);
      const int64_t end = part_begin(n, threads, t + 1);
      for (int64_t i = part_begin(n, threads, t); i < end; ++i) ++counts[digit(keys[i])];
    });
    // Bucket by bucket, thread by thread: each thread's keys land after those of the threads
    // before it, so every pass is stable. A digit that all keys share moves nothing.
    size_t offset = 0;
    bool one_bucket = false;
    for (size_t d = 0; d < kBuckets; ++d) {
      const size_t bucket_begin = offset;
      for (auto& counts : next) {
        const size_t count = counts[d];
        counts[d] = offset;
        offset += count;
      }
      one_bucket = one_bucket || offset - bucket_begin == keys.size();
    }
    if (one_bucket) continue;
    parallel_for(threads, threads, [&](int t) {
      auto& at = next[t];
      const int64_t end = part_begin(n, threads, t + 1);
      for (int64_t i = part_begin(n, threads, t); i < end; ++i) {
        sorted[at[digit(keys[i])]++] = keys[i];
      }
    });
    keys.swap(sorted);
  }
}

}  // namespace ktune
