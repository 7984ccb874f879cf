#include "workload/cancellation.h"

namespace ktune {
namespace {
thread_local const std::atomic<bool>* current_flag = nullptr;
}  // namespace

const std::atomic<bool>* current_cancellation() { return current_flag; }

bool cancellation_requested() { return current_flag && current_flag->load(std::memory_order_relaxed); }

CancellationScope::CancellationScope(const std::atomic<bool>* flag) : previous_(current_flag) { current_flag = flag; }

CancellationScope::~CancellationScope() { current_flag = previous_; }

}  // namespace ktune
