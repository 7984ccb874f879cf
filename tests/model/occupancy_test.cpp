#include "model/occupancy.h"

#include <cuda_occupancy.h>
#include <gtest/gtest.h>

namespace ktune {
namespace {

struct Case {
  int threads, registers, shared;
  int blocks;
  const char* limiter;
};

// Worked by hand from the occupancy calculator's rules for sm_90: 64 warps and 32 blocks
// per SM; registers per warp rounded up to 256, 16384 per partition, 4 partitions; shared
// memory per block = (bytes + 1 KiB reserved) rounded up to 128, 228 KiB per SM.
TEST(Occupancy, HandWorkedHopperCases) {
  const Case cases[] = {
      // 8 warps/block: 64/8 = 8 by warps; 1024 regs/warp -> 16 per partition -> 8 blocks.
      {256, 32, 0, 8, "warps"},
      // 2048 regs/warp -> 8 per partition -> 32 warps -> 4 blocks.
      {256, 64, 0, 4, "registers"},
      // 40 -> 1280 regs/warp -> 12 per partition -> 48 warps -> 24 two-warp blocks (not the
      // 25 that 65536 / 1280 = 51 warps would give without partitions).
      {64, 40, 0, 24, "registers"},
      // 33 regs round up like 40: 1056 -> 1280.
      {64, 33, 0, 24, "registers"},
      // 3-warp blocks, 4096 regs/warp -> 4 per partition -> 16 warps -> 5 blocks.
      {96, 128, 0, 5, "registers"},
      // 255 -> 8192 regs/warp -> 2 per partition -> 8 warps -> 8 one-warp blocks.
      {32, 255, 0, 8, "registers"},
      // One-warp blocks: the 32-block cap binds before 64 warps.
      {32, 16, 0, 32, "blocks"},
      // 48 KiB + 1 KiB = 50176 bytes -> 233472 / 50176 = 4 blocks.
      {128, 16, 48 * 1024, 4, "shared_memory"},
      // 45670 + 1024 = 46694 rounds up to 46720, and 5 x 46720 > 233472: 4, not 5.
      {128, 16, 45670, 4, "shared_memory"},
      // 227 KiB is the largest block: exactly one fits.
      {128, 16, 227 * 1024, 1, "shared_memory"},
      // 1024 threads x 64 regs = the whole register file: one block.
      {1024, 64, 0, 1, "registers"},
      // 1024 threads x 32 regs: half the file per block; the 64 warps bind first.
      {1024, 32, 0, 2, "warps"},
  };
  const GpuSpec h100 = spec_for_arch("sm_90");
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << c.threads << " threads, " << c.registers << " regs, "
                                    << c.shared << " bytes");
    const Occupancy o = occupancy(h100, c.threads, c.registers, c.shared);
    EXPECT_EQ(o.blocks_per_sm, c.blocks);
    EXPECT_EQ(o.limiter, c.limiter);
    const int warps = c.blocks * ((c.threads + 31) / 32);
    EXPECT_EQ(o.warps_per_sm, warps);
    EXPECT_DOUBLE_EQ(o.fraction, warps / 64.0);
  }
}

TEST(Occupancy, BlocksThatCannotLaunchNameTheReason) {
  const GpuSpec h100 = spec_for_arch("sm_90");
  const Occupancy too_many_threads = occupancy(h100, 1025, 16, 0);
  EXPECT_EQ(too_many_threads.blocks_per_sm, 0);
  EXPECT_EQ(too_many_threads.limiter, "threads_per_block");
  // 65 regs -> 2304 per warp x 32 warps > 65536.
  const Occupancy too_many_registers = occupancy(h100, 1024, 65, 0);
  EXPECT_EQ(too_many_registers.blocks_per_sm, 0);
  EXPECT_EQ(too_many_registers.limiter, "registers");
  EXPECT_EQ(occupancy(h100, 32, 256, 0).blocks_per_sm, 0);
  const Occupancy too_much_shared = occupancy(h100, 128, 16, 227 * 1024 + 1);
  EXPECT_EQ(too_much_shared.blocks_per_sm, 0);
  EXPECT_EQ(too_much_shared.limiter, "shared_memory");
  EXPECT_DOUBLE_EQ(too_much_shared.fraction, 0);
}

TEST(Occupancy, AmpereHasLessSharedMemory) {
  // 164 KiB / 50176 bytes = 3 blocks on an A100 where an H100 holds 4.
  EXPECT_EQ(occupancy(spec_for_arch("sm_80"), 128, 16, 48 * 1024).blocks_per_sm, 3);
}

// NVIDIA's own calculator (cuda_occupancy.h, header only) over a sweep of configurations.
cudaOccDeviceProp nvidia_properties(const GpuSpec& s, int major) {
  cudaOccDeviceProp p;
  p.computeMajor = major;
  p.computeMinor = 0;
  p.maxThreadsPerBlock = s.max_threads_per_block;
  p.maxThreadsPerMultiprocessor = s.max_threads_per_sm;
  p.regsPerBlock = s.registers_per_sm;
  p.regsPerMultiprocessor = s.registers_per_sm;
  p.warpSize = 32;
  p.sharedMemPerBlock = 48 * 1024;
  p.sharedMemPerMultiprocessor = s.shared_per_sm;
  p.numSms = s.sms;
  p.sharedMemPerBlockOptin = s.max_shared_per_block;
  p.reservedSharedMemPerBlock = s.reserved_shared_per_block;
  return p;
}

TEST(Occupancy, AgreesWithNvidiasCalculator) {
  for (const auto& [arch, major] : {std::pair{"sm_80", 8}, std::pair{"sm_90", 9}}) {
    const GpuSpec spec = spec_for_arch(arch);
    const cudaOccDeviceProp props = nvidia_properties(spec, major);
    for (int threads : {32, 64, 96, 128, 160, 192, 256, 384, 512, 640, 768, 1024, 33, 100}) {
      for (int registers = 0; registers <= 255; registers += 7) {
        for (int shared : {0, 1000, 4096, 20000, 45670, 48 * 1024, 100000, 160 * 1024, 200000}) {
          cudaOccFuncAttributes attributes;
          attributes.maxThreadsPerBlock = 1024;
          attributes.numRegs = registers;
          attributes.sharedSizeBytes = shared;
          attributes.partitionedGCConfig = PARTITIONED_GC_OFF;
          attributes.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
          attributes.maxDynamicSharedSizeBytes = 0;
          cudaOccDeviceState state;
          cudaOccResult expected;
          ASSERT_EQ(cudaOccMaxActiveBlocksPerMultiprocessor(&expected, &props, &attributes,
                                                            &state, threads, 0),
                    CUDA_OCC_SUCCESS);
          EXPECT_EQ(occupancy(spec, threads, registers, shared).blocks_per_sm,
                    expected.activeBlocksPerMultiprocessor)
              << arch << ": " << threads << " threads, " << registers << " regs, " << shared
              << " bytes";
        }
      }
    }
  }
}

// The driver carves out only the shared memory the resident blocks need (plus its 1 KB per
// block); the rest of the 256 KB array is L1. A kernel without shared memory keeps most of it.
TEST(L1BytesPerSm, TheSmallestCarveoutThatHoldsTheResidentBlocksIsShared) {
  const GpuSpec h = spec_for_arch("sm_90");
  EXPECT_EQ(l1_bytes_per_sm(h, 0, 16), (256 - 16) * 1024);  // 16 x 1 KB reserve: 16 KB carveout
  EXPECT_EQ(l1_bytes_per_sm(h, 0, 8), (256 - 8) * 1024);
  EXPECT_EQ(l1_bytes_per_sm(h, 0, 17), (256 - 32) * 1024);  // 17 KB rounds up to 32 KB
  EXPECT_EQ(l1_bytes_per_sm(h, 40 * 1024, 5), (256 - 228) * 1024);  // 205 KB: the largest
  EXPECT_EQ(l1_bytes_per_sm(h, 0, 0), 256 * 1024);
  const GpuSpec a = spec_for_arch("sm_80");
  EXPECT_EQ(l1_bytes_per_sm(a, 3 * 1024, 32), (192 - 132) * 1024);  // 128 KB needed
}

}  // namespace
}  // namespace ktune
