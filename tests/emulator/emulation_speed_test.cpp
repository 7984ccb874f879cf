// How long one candidate takes to emulate on a realistic synthetic trace (the target:
// 20 ms per candidate on the build machine). Printed for the record; the bound asserted
// here is loose, to catch an accidental slowdown by an order of magnitude.
#include <gtest/gtest.h>

#include <ctime>
#include <cstdio>

#include "model/emulator/block_sampling.h"
#include "model/emulator/sensitivity.h"
#include "synthetic.h"

namespace ktune {
namespace {

using test::add_load;
using test::trace_op;

// 16 warps x 2000 ops of an SpMV-like mix: integer index arithmetic, streamed loads of
// values and column indices, gathers from a shared vector, FMAs, a shuffle reduction,
// branches, and a barrier every 500 ops.
BlockTrace realistic_block(int64_t id) {
  BlockTrace b;
  b.block = id;
  b.warps.resize(16);
  uint64_t state = static_cast<uint64_t>(id) * 2654435761u + 1;
  auto next = [&] { return state = state * 6364136223846793005ULL + 1442695040888963407ULL, state >> 33; };
  uint64_t stream = (static_cast<uint64_t>(id) + 1) << 16;
  for (WarpTrace& w : b.warps) {
    for (uint32_t i = 0; w.ops.size() < 2000; ++i) {
      const uint32_t at = static_cast<uint32_t>(w.ops.size());
      const uint32_t recent = at > 0 ? at - 1 - static_cast<uint32_t>(next() % std::min<uint32_t>(at, 6)) : kNoDep;
      const uint32_t region = at / 500;
      if (at % 500 == 499) {
        w.ops.push_back(trace_op(OpClass::Barrier, 1, kNoDep, region));
        continue;
      }
      switch (next() % 10) {
        case 0: add_load(w, {stream, stream + 1}, region, recent); stream += 2; break;
        case 1: {
          std::vector<uint64_t> gather;
          for (uint64_t k = 0, n = 1 + next() % 4; k < n; ++k) gather.push_back(next() % 20000);
          add_load(w, gather, region, recent);
          break;
        }
        case 2:
        case 3: w.ops.push_back(trace_op(OpClass::Fp32, 1, recent, region)); break;
        case 4: w.ops.push_back(trace_op(OpClass::Shuffle, 1, recent, region)); break;
        case 5: w.ops.push_back(trace_op(OpClass::Branch, 1, recent, region)); break;
        default: w.ops.push_back(trace_op(OpClass::IntAlu, 1, recent, region)); break;
      }
    }
  }
  return b;
}

// Processor time, not wall time: the build machine is shared, and what a candidate costs is
// the work it does.
double ms_since(std::clock_t start) { return 1e3 * static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC; }

TEST(EmulationSpeed, OneCandidateOfEightSampledBlocks) {
  KernelEmulationInput in;
  in.gpu = spec_for_arch("sm_90");
  in.threads_per_block = 512;
  in.usage.registers = 32;  // 4 blocks per SM
  in.block_weights.resize(static_cast<size_t>(in.gpu.sms) * 4 * 20);
  for (size_t i = 0; i < in.block_weights.size(); ++i) in.block_weights[i] = 1 + static_cast<double>(i % 7);
  for (int64_t block : choose_sample_blocks(in.block_weights, {4, 4, 1})) in.samples.push_back(realistic_block(block));

  std::clock_t start = std::clock();
  const PreparedKernel k = prepare_kernel(in);
  const double prepare_ms = ms_since(start);
  start = std::clock();
  const KernelPrediction p = predict_kernel(k);
  const double predict_ms = ms_since(start);
  start = std::clock();
  const SensitivityReport s = analyse_sensitivity(k);
  const double sensitivity_ms = ms_since(start);
  // One block, the unit of a candidate: 16 warps x 2000 ops alone on an SM.
  KernelEmulationInput single = in;
  single.samples.resize(1);
  KernelEmulationOptions alone;
  alone.resident_blocks = 1;
  const PreparedKernel one = prepare_kernel(single, alone);
  start = std::clock();
  const int repeats = 10;
  for (int i = 0; i < repeats; ++i) predict_kernel(one);
  const double one_block_ms = ms_since(start) / repeats;
  std::printf("one block of 16 warps x 2000 ops alone: emulate %.2f ms (processor time)\n", one_block_ms);
  size_t ops = 0;
  for (const EmuBlock* b : k.queue) ops += b->op_count();
  std::printf("emulation of one candidate: %zu sampled blocks x 16 warps x 2000 ops, %d resident,\n"
              "  SM run of %zu blocks (%zu ops): prepare %.1f ms, emulate %.1f ms (%.0f ns/op);\n"
              "  sensitivity %d emulations %.1f ms; predicted %.1f us, bottleneck %s %s %.2f\n",
              in.samples.size(), k.resident_blocks, k.queue.size(), ops, prepare_ms, predict_ms,
              predict_ms * 1e6 / static_cast<double>(ops), s.emulations, sensitivity_ms,
              p.microseconds, resource_name(s.bottleneck.resource), bound_kind_name(s.bottleneck.kind),
              s.bottleneck.elasticity);
  EXPECT_GT(p.cycles, 0);
  EXPECT_LT(prepare_ms + predict_ms, 500);
}

}  // namespace
}  // namespace ktune
