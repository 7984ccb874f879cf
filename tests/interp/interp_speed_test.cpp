// How fast the interpreter traces sampled blocks of a typical SpMV configuration on a ~1M
// nonzero matrix (a 5-point stencil): the emulator budgets <= 20 ms per candidate for a few
// dozen blocks. Prints the time per block; fails only when it is far off (a slow CI machine
// must not fail it).
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>

#include "model/interp/interpreter.h"
#include "model/ptx/ptx_parser.h"
#include "tests/ptx/spmv_ptx_corpus.h"
#include "workload/generators.h"

namespace ktune::interp {
namespace {

using testing_support::spmv_ptx_corpus;

TEST(InterpSpeed, TracesSampledBlocksOfAMillionNonzeroStencilQuickly) {
  Workload w;
  w.matrix = generate_stencil_2d(448);  // 200704 rows, 1001728 nonzeros
  const SpmvFamily family;
  for (const auto& item : spmv_ptx_corpus()) {
    const std::string name = family.space({}).canonical(item.config);
    const bool typical = name == "block=256;items_per_thread=1;lanes=1;schedule=row" ||
                         name == "block=256;items_per_thread=1;lanes=4;schedule=subwarp" ||
                         name == "block=256;items_per_thread=4;lanes=1;schedule=merge" ||
                         name == "block=256;items_per_thread=4;lanes=1;schedule=adaptive";
    if (!typical || item.dtype != Dtype::F64) continue;
    const ptx::PtxModule module = ptx::parse_ptx(item.ptx);
    const LaunchPlan plan = family.prepare(w, Problem::of(item.dtype), item.config);
    const LaunchStep& step = plan.steps.at(0);
    const auto setup_start = std::chrono::steady_clock::now();
    HostMemory memory(plan);
    LaunchInterpreter interpreter(module.function(step.entry), step, memory);
    const int64_t blocks = interpreter.block_count();
    interpreter.run_block(0, true);  // warms the register files (first-touch page faults)
    const std::clock_t cpu_start = std::clock();
    const auto start = std::chrono::steady_clock::now();
    const double setup = std::chrono::duration<double>(start - setup_start).count();
    const int kSamples = std::getenv("KTUNE_SPEED_SAMPLES") ? std::atoi(std::getenv("KTUNE_SPEED_SAMPLES")) : 32;
    size_t ops = 0;
    for (int i = 0; i < kSamples; ++i) {
      const BlockTrace t = interpreter.run_block(blocks * i / kSamples, true);
      for (const WarpTrace& warp : t.warps) ops += warp.ops.size();
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // CPU time: the build machine is shared, and wall time there counts other processes' turns.
    const double seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    std::printf("%-56s %s: setup %.2f ms, %d of %lld blocks in %.2f ms CPU, %.2f ms wall (%.1f us/block, %.1f ns/warp op, %zu ops)\n",
                name.c_str(), to_string(item.dtype), setup * 1e3, kSamples, static_cast<long long>(blocks), seconds * 1e3, wall * 1e3,
                seconds * 1e6 / kSamples, seconds * 1e9 / static_cast<double>(ops), ops);
    EXPECT_GT(ops, 0u);
    EXPECT_LT(seconds / kSamples, 5e-3);  // generous: measured well under 0.1 ms a block
  }
}

}  // namespace
}  // namespace ktune::interp
