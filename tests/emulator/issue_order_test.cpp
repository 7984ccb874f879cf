#include "model/emulator/issue_order.h"

#include <gtest/gtest.h>

#include "model/emulator/kernel_emulation.h"
#include "synthetic.h"

namespace ktune {
namespace {

using test::add_load;
using test::trace_op;

// One unrolled body of `iterations` gathers as NVRTC writes it: per iteration an index load, a
// value load, the gather at that index and the multiply-add into the running sum; then the
// loop branch. Sectors: index/value streams at 0.., the gathers at 1000 + 37 i.
WarpTrace unrolled_gathers(int iterations) {
  WarpTrace w;
  uint32_t sum = kNoDep;
  for (int i = 0; i < iterations; ++i) {
    const uint32_t index = static_cast<uint32_t>(w.ops.size());
    add_load(w, {static_cast<uint64_t>(2 * i)});
    const uint32_t value = static_cast<uint32_t>(w.ops.size());
    add_load(w, {static_cast<uint64_t>(2 * i + 1)});
    const uint32_t gather = static_cast<uint32_t>(w.ops.size());
    add_load(w, {static_cast<uint64_t>(1000 + 37 * i)}, 0, index);
    TraceOp fma = trace_op(OpClass::Fp32, 1, value);
    fma.deps[1] = gather;
    fma.deps[2] = sum;
    sum = static_cast<uint32_t>(w.ops.size());
    w.ops.push_back(fma);
  }
  w.ops.push_back(trace_op(OpClass::Branch, 1, sum));
  return w;
}

std::vector<uint64_t> first_sectors(const WarpTrace& w) {
  std::vector<uint64_t> out;
  for (const TraceOp& op : w.ops) out.push_back(op.op == OpClass::GlobalLoad ? w.sectors[op.sector_begin] : UINT64_MAX);
  return out;
}

// The index and value loads of every iteration go first, then the gathers, then the arithmetic;
// every dependency still points at the same producer, now earlier in the order.
TEST(IssueOrder, UnrolledLoadsGoFirstAndDependenciesFollowThem) {
  const WarpTrace before = unrolled_gathers(3);
  WarpTrace after = before;
  issue_like_ptxas(after);
  ASSERT_EQ(after.ops.size(), before.ops.size());
  const uint64_t none = UINT64_MAX;
  EXPECT_EQ(first_sectors(after), (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 1000, 1037, 1074, none, none, none, none}));
  EXPECT_EQ(after.ops.back().op, OpClass::Branch);
  for (size_t i = 0; i < after.ops.size(); ++i) {
    for (uint32_t d : after.ops[i].deps) {
      if (d == kNoDep) continue;
      EXPECT_LT(d, i) << "op " << i << " reads a later op";
    }
  }
  // Gather k reads index load k (sector 2k); multiply-add k reads value k and gather k.
  for (int k = 0; k < 3; ++k) {
    const TraceOp& gather = after.ops[6 + k];
    ASSERT_EQ(gather.op, OpClass::GlobalLoad);
    ASSERT_LT(gather.deps[0], after.ops.size());
    EXPECT_EQ(after.sectors[after.ops[gather.deps[0]].sector_begin], static_cast<uint64_t>(2 * k));
    const TraceOp& fma = after.ops[9 + k];
    ASSERT_LT(fma.deps[0], after.ops.size());
    EXPECT_EQ(after.sectors[after.ops[fma.deps[0]].sector_begin], static_cast<uint64_t>(2 * k + 1));
    EXPECT_EQ(fma.deps[1], static_cast<uint32_t>(6 + k));
  }
}

// A load does not move above a store, a barrier or a branch; the address arithmetic it needs
// moves up with it.
TEST(IssueOrder, LoadsStayBehindStoresAndBarriersAndTakeTheirAddressArithmetic) {
  WarpTrace w;
  add_load(w, {1});                                  // 0
  w.ops.push_back(trace_op(OpClass::Fp32, 1, 0));    // 1: uses load 0
  w.ops.push_back(trace_op(OpClass::IntAlu));        // 2: an address
  add_load(w, {2}, 0, 2);                            // 3: at that address
  w.ops.push_back(trace_op(OpClass::GlobalStore));   // 4
  add_load(w, {3});                                  // 5
  w.ops.push_back(trace_op(OpClass::Barrier));       // 6
  add_load(w, {4});                                  // 7
  issue_like_ptxas(w);
  std::vector<OpClass> classes;
  for (const TraceOp& op : w.ops) classes.push_back(op.op);
  EXPECT_EQ(classes, (std::vector<OpClass>{OpClass::GlobalLoad, OpClass::IntAlu, OpClass::GlobalLoad, OpClass::Fp32,
                                            OpClass::GlobalStore, OpClass::GlobalLoad, OpClass::Barrier,
                                            OpClass::GlobalLoad}));
  EXPECT_EQ(w.ops[2].deps[0], 1u);  // the second load reads its address, now at 1
  EXPECT_EQ(w.ops[3].deps[0], 0u);  // the arithmetic still reads the first load
  EXPECT_EQ(w.sectors[w.ops[5].sector_begin], 3u);
}

// What the order is for: in PTX order each gather waits for its index before the next index
// load can issue, so the body costs a device-memory round trip per iteration; in ptxas's order
// the round trips overlap.
TEST(IssueOrder, TheBodyOverlapsItsRoundTrips) {
  const GpuSpec gpu = test::simple_gpu();
  auto cycles = [&](const WarpTrace& w) {
    KernelEmulationInput in;
    in.gpu = gpu;
    in.threads_per_block = 32;
    in.block_weights = {1.0};
    BlockTrace b;
    b.warps = {w};
    in.samples = {b};
    return emulate_kernel(in).cycles;
  };
  WarpTrace reordered = unrolled_gathers(4);
  issue_like_ptxas(reordered);
  const double ptx_order = cycles(unrolled_gathers(4)), ptxas_order = cycles(reordered);
  EXPECT_LT(ptxas_order, 0.5 * ptx_order) << ptx_order << " against " << ptxas_order;
}

}  // namespace
}  // namespace ktune
