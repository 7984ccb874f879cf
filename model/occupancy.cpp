#include "model/occupancy.h"

#include <algorithm>
#include <climits>
#include <iterator>
#include <stdexcept>
#include <utility>

namespace ktune {
namespace {

constexpr int kWarpSize = 32;

int divide_round_up(int x, int y) { return (x + y - 1) / y; }
int round_up(int x, int y) { return divide_round_up(x, y) * y; }

// Blocks per SM allowed by the register file; 0 when one block does not fit.
int blocks_by_registers(const GpuSpec& gpu, int warps_per_block, int registers_per_thread) {
  if (registers_per_thread > gpu.max_registers_per_thread) return 0;
  if (registers_per_thread == 0) return INT_MAX;
  const int per_warp = round_up(registers_per_thread * kWarpSize, gpu.register_alloc_unit);
  // A warp's registers come from one partition of the register file.
  const int warps_per_partition = gpu.registers_per_sm / gpu.register_partitions / per_warp;
  return warps_per_partition * gpu.register_partitions / warps_per_block;
}

// Blocks per SM allowed by shared memory; 0 when one block does not fit.
int blocks_by_shared_memory(const GpuSpec& gpu, int shared_bytes) {
  if (shared_bytes > gpu.max_shared_per_block) return 0;
  const int allocated =
      round_up(shared_bytes + gpu.reserved_shared_per_block, gpu.shared_alloc_unit);
  return gpu.shared_per_sm / allocated;
}

}  // namespace

Occupancy occupancy(const GpuSpec& gpu, int threads_per_block, int registers_per_thread,
                    int shared_bytes_per_block) {
  if (threads_per_block <= 0 || registers_per_thread < 0 || shared_bytes_per_block < 0) {
    throw std::invalid_argument("occupancy: block size must be positive, resources not negative");
  }
  Occupancy result;
  if (threads_per_block > gpu.max_threads_per_block) {
    result.limiter = "threads_per_block";
    return result;
  }
  const int warps_per_block = divide_round_up(threads_per_block, kWarpSize);
  // In tie-break order: hardware slots first, so a resource is named only when it binds.
  const std::pair<const char*, int> limits[] = {
      {"blocks", gpu.max_blocks_per_sm},
      {"warps", gpu.max_warps_per_sm / warps_per_block},
      {"registers", blocks_by_registers(gpu, warps_per_block, registers_per_thread)},
      {"shared_memory", blocks_by_shared_memory(gpu, shared_bytes_per_block)},
  };
  const auto* binding = std::min_element(
      std::begin(limits), std::end(limits),
      [](const auto& a, const auto& b) { return a.second < b.second; });
  result.limiter = binding->first;
  result.blocks_per_sm = binding->second;
  result.warps_per_sm = result.blocks_per_sm * warps_per_block;
  result.fraction = static_cast<double>(result.warps_per_sm) / gpu.max_warps_per_sm;
  return result;
}

int64_t l1_bytes_per_sm(const GpuSpec& gpu, int shared_bytes_per_block, int blocks_per_sm) {
  const int64_t needed = static_cast<int64_t>(std::max(0, blocks_per_sm)) *
                         round_up(shared_bytes_per_block + gpu.reserved_shared_per_block, gpu.shared_alloc_unit);
  int64_t carveout = gpu.shared_per_sm;
  for (int c : gpu.shared_carveouts)
    if (c >= needed) {
      carveout = c;
      break;
    }
  return std::max<int64_t>(0, gpu.unified_l1_shared_bytes - carveout);
}

}  // namespace ktune
