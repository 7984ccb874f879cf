#pragma once
// A sampled block as the emulator runs it: every TraceOp turned into the resources it is
// admitted to (a global access already split into L1/L2/DRAM sectors by the cache estimate),
// so that the timing loop does no classification and sensitivity re-runs share the work.
#include <array>
#include <cstdint>
#include <vector>

#include "model/resource.h"
#include "model/trace.h"

namespace ktune {

// `count` transactions of `resource` (sectors, requests, wavefronts, addresses) that occupy it
// for `cost` gaps (cost = count, except for L1 and device-memory sectors: gpu_spec.h,
// LineWeights); no transactions means a latency without occupying it.
struct ResourceUse {
  Resource resource = Resource::Issue;
  uint32_t count = 0;
  double cost = 0;
};

struct EmuOp {
  std::array<ResourceUse, 4> uses{};  // uses[0, use_count)
  uint8_t use_count = 0;
  bool barrier = false;  // waits for the whole block; uses nothing else
  std::array<uint32_t, 3> deps{kNoDep, kNoDep, kNoDep};
  uint32_t region = 0;
};

struct EmuWarp {
  std::vector<EmuOp> ops;
};

struct EmuBlock {
  int64_t block = 0;  // linear index in the grid
  std::vector<EmuWarp> warps;
  std::array<double, kResourceCount> transactions{};  // admissions per resource, issue included
  size_t op_count() const;
};

// A non-global op's single use (global ops go through the cache estimate instead).
EmuOp lower_compute_op(const TraceOp& op);

}  // namespace ktune
