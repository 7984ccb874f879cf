#pragma once
// How many blocks of a kernel an SM holds at once, by the rules of NVIDIA's occupancy
// calculator (cuda_occupancy.h): registers go to warps in units, per register-file
// partition; shared memory goes to blocks in units, plus what the driver reserves.
#include <cstdint>
#include <string>

#include "model/gpu_spec.h"

namespace ktune {

struct Occupancy {
  int blocks_per_sm = 0;
  int warps_per_sm = 0;
  double fraction = 0;  // resident warps / the SM's maximum
  // What caps blocks_per_sm: "blocks", "warps", "registers" or "shared_memory" (the first
  // of these in that order on a tie). When no block fits, what stops it:
  // "threads_per_block", "registers" or "shared_memory".
  std::string limiter;
};

Occupancy occupancy(const GpuSpec& gpu, int threads_per_block, int registers_per_thread,
                    int shared_bytes_per_block);

// The L1 data cache an SM keeps beside `blocks_per_sm` resident blocks of a kernel with this
// much shared memory per block: the unified array less the smallest carveout that holds
// their shared memory and the driver's reserve, as the driver configures it by default.
int64_t l1_bytes_per_sm(const GpuSpec& gpu, int shared_bytes_per_block, int blocks_per_sm);

}  // namespace ktune
