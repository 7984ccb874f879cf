#pragma once
// The hardware resources of the abstract kernel emulator (SAAKE, digest-000 §2.2). Each has a
// latency (dependent-issue distance, cycles) and a gap (cycles between two admissions, the
// inverse of throughput). The list is shared by gpu_spec (defaults), calibration (measured
// values), the emulator (pipe_admit per resource) and sensitivity analysis (one row each).
#include <array>
#include <cstddef>
#include <optional>
#include <string>

namespace ktune {

enum class Resource : int {
  IntAlu,   // integer add/logic/shift/compare, moves that survive to SASS
  Fp32,     // FP32 FMA/add/mul
  Fp64,     // FP64 FMA/add/mul
  Sfu,      // MUFU: reciprocal, rsqrt, ex2, lg2, sin, cos; integer division sequences
  Shared,   // shared memory and shuffles through the LSU, per wavefront
  L1,       // L1's pipe: every 32-byte sector of a global access, whether L1 has it or not
  L2Tag,    // L2 slices' tag lookups: per request (one warp access's sectors of one 128-byte
            // line that L1 did not serve), hit or miss
  L2,       // L2 slices' data path to the SMs: per 32-byte sector L1 did not serve, whether L2
            // had it or fetched it from device memory
  Dram,     // global access that goes to device memory, per 32-byte sector
  Atomic,   // global/shared atomics and reductions
  Branch,   // branches, predicate setting for control, calls/returns
  Barrier,  // bar.sync and its relatives
  Issue,    // one issue slot of a warp scheduler
};
inline constexpr size_t kResourceCount = 13;

// Whether each warp scheduler (SM sub-partition) has its own copy of the resource, so that
// its gap counts per scheduler (the arithmetic pipes, branch, issue), or the SM's schedulers
// share one (shared memory/LSU, L1, L2 tag and data and DRAM shares, atomics, barriers).
bool resource_is_per_scheduler(Resource r);

const char* resource_name(Resource r);                          // "dram", "fp32", ...
std::optional<Resource> resource_from_name(const std::string& name);

struct ResourceTiming {
  double latency = 1;  // cycles
  double gap = 1;      // cycles
};

using ResourceTable = std::array<ResourceTiming, kResourceCount>;

inline ResourceTiming& timing(ResourceTable& t, Resource r) { return t[static_cast<size_t>(r)]; }
inline const ResourceTiming& timing(const ResourceTable& t, Resource r) {
  return t[static_cast<size_t>(r)];
}

}  // namespace ktune
