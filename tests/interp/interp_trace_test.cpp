// The interpreter on small hand-written kernels, where the right trace is known: coalescing
// (sectors), shared-memory bank conflicts (wavefronts), barriers, divergence and
// reconvergence, data-dependent trip counts, atomics, def-use deps, and clear errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "kernels/device_buffers.h"
#include "model/interp/interpreter.h"
#include "model/ptx/ptx_parser.h"
#include "workload/input_error.h"

namespace ktune::interp {
namespace {

const char* const kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n";

ptx::PtxModule parse(const std::string& body) { return ptx::parse_ptx(kHeader + body); }

LaunchStep step_of(const std::string& entry, uint32_t threads, std::vector<KernelArg> args, uint32_t blocks = 1) {
  LaunchStep s;
  s.entry = entry;
  s.grid.x = blocks;
  s.block.x = threads;
  s.args = std::move(args);
  return s;
}

template <typename T>
std::vector<T> read_buffer(const HostMemory& memory, const std::string& name, size_t n) {
  std::vector<T> out(n);
  std::memcpy(out.data(), memory.bytes_of(name).data(), n * sizeof(T));
  return out;
}

// The ops of a warp trace at one pc.
std::vector<TraceOp> ops_at(const WarpTrace& w, uint32_t pc) {
  std::vector<TraceOp> out;
  for (const TraceOp& op : w.ops) {
    if (op.pc == pc) out.push_back(op);
  }
  return out;
}

uint32_t pc_of(const ptx::PtxFunction& f, ptx::Opcode op, int nth = 0) {
  for (uint32_t pc = 0; pc < f.code.size(); ++pc) {
    if (f.code[pc].op == op && nth-- == 0) return pc;
  }
  throw std::runtime_error("no such instruction");
}

// out[t] = in[t * stride]
const char* const kGather = R"(
.visible .entry gather(.param .u64 gather_in, .param .u64 gather_out, .param .u32 gather_stride)
{
  .reg .b32 %r<5>;
  .reg .f32 %f<2>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [gather_in];
  ld.param.u64 %rd2, [gather_out];
  ld.param.u32 %r1, [gather_stride];
  mov.u32 %r2, %tid.x;
  mul.lo.s32 %r3, %r2, %r1;
  mul.wide.s32 %rd3, %r3, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.nc.f32 %f1, [%rd4];
  mul.wide.u32 %rd5, %r2, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.f32 [%rd6], %f1;
  ret;
}
)";

TEST(InterpTrace, CoalescedAndStridedLoadsCountSectors) {
  const ptx::PtxModule m = parse(kGather);
  const ptx::PtxFunction& f = m.function("gather");
  std::vector<float> in(32 * 32);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i) * 0.5f;
  for (int32_t stride : {1, 32}) {
    LaunchPlan plan;
    plan.buffers = {input_buffer("in", in), output_buffer("out", 32, Dtype::F32)};
    HostMemory memory(plan);
    const LaunchStep step = step_of("gather", 32, {KernelArg::of_buffer("in"), KernelArg::of_buffer("out"),
                                                   KernelArg::of_scalar(stride)});
    const std::vector<BlockTrace> traces = interpret_blocks(f, step, memory, {0});
    ASSERT_EQ(traces.size(), 1u);
    ASSERT_EQ(traces[0].warps.size(), 1u);
    const WarpTrace& w = traces[0].warps[0];
    const auto loads = ops_at(w, pc_of(f, ptx::Opcode::Ld, 3));  // after the three ld.param
    ASSERT_EQ(loads.size(), 1u);
    const TraceOp& load = loads[0];
    EXPECT_EQ(load.op, OpClass::GlobalLoad);
    EXPECT_TRUE(load.global_read_only);
    EXPECT_FALSE(load.evict_first);
    EXPECT_EQ(load.active_lanes, 32);
    EXPECT_EQ(load.transactions, stride == 1 ? 4 : 32) << "stride " << stride;
    // The listed sectors are the ones of in[t * stride]: distinct, 32 bytes apart per 8 floats.
    const uint64_t first = memory.address_of("in") / 32;
    for (int i = 0; i < load.transactions; ++i) {
      EXPECT_EQ(w.sectors[load.sector_begin + i], first + static_cast<uint64_t>(i) * (stride == 1 ? 1 : 4));
    }
    const auto stores = ops_at(w, pc_of(f, ptx::Opcode::St));
    ASSERT_EQ(stores.size(), 1u);
    EXPECT_EQ(stores[0].op, OpClass::GlobalStore);
    EXPECT_EQ(stores[0].transactions, 4);
    // Def-use: the store waits for the load (its value) among its producers.
    const uint32_t load_index = static_cast<uint32_t>(
        std::find_if(w.ops.begin(), w.ops.end(), [](const TraceOp& o) { return o.op == OpClass::GlobalLoad; }) - w.ops.begin());
    EXPECT_NE(std::find(stores[0].deps.begin(), stores[0].deps.end(), load_index), stores[0].deps.end());
    // ld.param and other vanishing instructions are not in the trace.
    for (const TraceOp& op : w.ops) EXPECT_NE(f.code[op.pc].space, ptx::StateSpace::Param);
    const std::vector<float> out = read_buffer<float>(memory, "out", 32);
    for (int t = 0; t < 32; ++t) EXPECT_EQ(out[t], in[static_cast<size_t>(t * stride)]);
  }
}

// A streaming load (ld.global.cs, what __ldcs compiles to) is marked evict-first for the cache
// estimate, and is not a read-only-path load.
TEST(InterpTrace, StreamingLoadsAreMarkedEvictFirst) {
  std::string text = kGather;
  text.replace(text.find("ld.global.nc.f32"), std::strlen("ld.global.nc.f32"), "ld.global.cs.f32");
  const ptx::PtxModule m = parse(text);
  const ptx::PtxFunction& f = m.function("gather");
  const std::vector<float> in(32, 1.0f);
  LaunchPlan plan;
  plan.buffers = {input_buffer("in", in), output_buffer("out", 32, Dtype::F32)};
  HostMemory memory(plan);
  const LaunchStep step = step_of("gather", 32, {KernelArg::of_buffer("in"), KernelArg::of_buffer("out"),
                                                 KernelArg::of_scalar(int32_t{1})});
  const std::vector<BlockTrace> traces = interpret_blocks(f, step, memory, {0});
  const auto loads = ops_at(traces.at(0).warps.at(0), pc_of(f, ptx::Opcode::Ld, 3));
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_TRUE(loads[0].evict_first);
  EXPECT_FALSE(loads[0].global_read_only);
  const auto stores = ops_at(traces.at(0).warps.at(0), pc_of(f, ptx::Opcode::St));
  ASSERT_EQ(stores.size(), 1u);
  EXPECT_FALSE(stores[0].evict_first);
}

// Each thread stores its index at buf[tid * stride] (4-byte words), then after a barrier
// reads the word its mirror thread (63 - tid) wrote: the barrier must order the two warps.
const char* const kBanks = R"(
.visible .entry banks(.param .u64 banks_out, .param .u32 banks_stride)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 buf[8192];
  ld.param.u64 %rd1, [banks_out];
  ld.param.u32 %r1, [banks_stride];
  mov.u32 %r2, %tid.x;
  mul.lo.s32 %r3, %r2, %r1;
  shl.b32 %r4, %r3, 2;
  mov.u32 %r5, buf;
  add.s32 %r6, %r5, %r4;
  st.shared.u32 [%r6], %r2;
  bar.sync 0;
  sub.s32 %r7, 63, %r2;
  mul.lo.s32 %r8, %r7, %r1;
  shl.b32 %r9, %r8, 2;
  add.s32 %r10, %r5, %r9;
  ld.shared.u32 %r11, [%r10];
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r11;
  ret;
}
)";

TEST(InterpTrace, SharedMemoryBankConflictsAndBarrier) {
  const ptx::PtxModule m = parse(kBanks);
  const ptx::PtxFunction& f = m.function("banks");
  EXPECT_EQ(f.static_shared_bytes, 8192u);
  for (int32_t stride : {1, 2, 32}) {
    LaunchPlan plan;
    plan.buffers = {output_buffer("out", 64, Dtype::F32)};
    HostMemory memory(plan);
    const LaunchStep step = step_of("banks", 64, {KernelArg::of_buffer("out"), KernelArg::of_scalar(stride)});
    const std::vector<BlockTrace> traces = interpret_blocks(f, step, memory, {0});
    ASSERT_EQ(traces[0].warps.size(), 2u);
    for (const WarpTrace& w : traces[0].warps) {
      const auto st = ops_at(w, pc_of(f, ptx::Opcode::St));
      const auto ld = ops_at(w, pc_of(f, ptx::Opcode::Ld, 2));
      ASSERT_EQ(st.size(), 1u);
      ASSERT_EQ(ld.size(), 1u);
      EXPECT_EQ(st[0].op, OpClass::SharedStore);
      EXPECT_EQ(ld[0].op, OpClass::SharedLoad);
      // stride 1: 32 banks once; stride 2: two words per even bank; stride 32: one bank.
      EXPECT_EQ(st[0].transactions, stride) << "stride " << stride;
      EXPECT_EQ(ld[0].transactions, stride) << "stride " << stride;
      EXPECT_EQ(ops_at(w, pc_of(f, ptx::Opcode::Bar)).at(0).op, OpClass::Barrier);
    }
    const std::vector<uint32_t> out = read_buffer<uint32_t>(memory, "out", 64);
    for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(out[t], 63 - t) << "thread " << t;
  }
}

// dp4a and dp2a, which NVRTC emits for mixed-radix index arithmetic: signed and unsigned bytes
// and halves, b's low and high bytes, and the accumulator.
const char* const kDot = R"(
.visible .entry dot(.param .u64 dot_out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [dot_out];
  cvta.to.global.u64 %rd2, %rd1;
  dp4a.u32.u32 %r1, 0x04030201, 0x01020304, 10;
  dp4a.s32.s32 %r2, 0xFF0302FE, 0x01020304, 0;
  dp2a.lo.u32.u32 %r3, 0x00070005, 0x04030201, 1;
  dp2a.hi.u32.u32 %r4, 0x00070005, 0x04030201, 1;
  dp2a.lo.s32.u32 %r5, 0xFFFF0002, 0x0000FF03, 0;
  st.global.u32 [%rd2], %r1;
  st.global.u32 [%rd2+4], %r2;
  st.global.u32 [%rd2+8], %r3;
  st.global.u32 [%rd2+12], %r4;
  st.global.u32 [%rd2+16], %r5;
  ret;
}
)";

TEST(InterpTrace, DotProductsOfBytesAndHalves) {
  const ptx::PtxModule m = parse(kDot);
  LaunchPlan plan;
  plan.buffers = {output_buffer("out", 5, Dtype::F32)};
  HostMemory memory(plan);
  interpret_blocks(m.function("dot"), step_of("dot", 1, {KernelArg::of_buffer("out")}), memory, {0});
  const std::vector<int32_t> out = read_buffer<int32_t>(memory, "out", 5);
  EXPECT_EQ(out[0], 10 + 1 * 4 + 2 * 3 + 3 * 2 + 4 * 1);
  EXPECT_EQ(out[1], -2 * 4 + 2 * 3 + 3 * 2 + -1 * 1);
  EXPECT_EQ(out[2], 1 + 5 * 1 + 7 * 2);
  EXPECT_EQ(out[3], 1 + 5 * 3 + 7 * 4);
  EXPECT_EQ(out[4], 2 * 3 + -1 * 255);
}

// Odd lanes add 100, even lanes 200, then all add 1 after the branches meet; then every lane
// loops `lane` times summing 0..lane-1.
const char* const kDiverge = R"(
.visible .entry diverge(.param .u64 diverge_out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [diverge_out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.s32 %p1, %r2, 0;
  @%p1 bra $EVEN;
  add.s32 %r3, %r1, 100;
  bra.uni $JOIN;
$EVEN:
  add.s32 %r3, %r1, 200;
$JOIN:
  add.s32 %r4, %r3, 1;
  mov.u32 %r5, %laneid;
  mov.u32 %r6, 0;
  mov.u32 %r7, 0;
  setp.eq.s32 %p2, %r5, 0;
  @%p2 bra $DONE;
$LOOP:
  add.s32 %r7, %r7, %r6;
  add.s32 %r6, %r6, 1;
  setp.lt.u32 %p3, %r6, %r5;
  @%p3 bra $LOOP;
$DONE:
  mul.lo.s32 %r8, %r7, 1000;
  add.s32 %r9, %r8, %r4;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r9;
  ret;
}
)";

TEST(InterpTrace, DivergenceReconvergesAtThePostDominator) {
  const ptx::PtxModule m = parse(kDiverge);
  const ptx::PtxFunction& f = m.function("diverge");
  LaunchPlan plan;
  plan.buffers = {output_buffer("out", 64, Dtype::F32)};
  HostMemory memory(plan);
  const std::vector<BlockTrace> traces =
      interpret_blocks(f, step_of("diverge", 64, {KernelArg::of_buffer("out")}), memory, {0});
  const std::vector<uint32_t> out = read_buffer<uint32_t>(memory, "out", 64);
  for (uint32_t t = 0; t < 64; ++t) {
    const uint32_t lane = t % 32;
    EXPECT_EQ(out[t], lane * (lane - 1) / 2 * 1000 + t + (t % 2 ? 101 : 201)) << t;
  }
  const uint32_t odd_add = pc_of(f, ptx::Opcode::Add, 0), even_add = pc_of(f, ptx::Opcode::Add, 1);
  const uint32_t join_add = pc_of(f, ptx::Opcode::Add, 2), loop_add = pc_of(f, ptx::Opcode::Add, 3);
  for (const WarpTrace& w : traces[0].warps) {
    ASSERT_EQ(ops_at(w, odd_add).size(), 1u);
    EXPECT_EQ(ops_at(w, odd_add)[0].active_lanes, 16);
    EXPECT_EQ(ops_at(w, even_add)[0].active_lanes, 16);
    // Reconverged: the join runs once, with every lane.
    ASSERT_EQ(ops_at(w, join_add).size(), 1u);
    EXPECT_EQ(ops_at(w, join_add)[0].active_lanes, 32);
    EXPECT_NE(ops_at(w, odd_add)[0].region, ops_at(w, join_add)[0].region);
    // Trip counts: iteration k runs for the lanes above k (lane 0 skips the loop).
    const auto body = ops_at(w, loop_add);
    ASSERT_EQ(body.size(), 30u + 1u);
    for (size_t k = 0; k < body.size(); ++k) EXPECT_EQ(body[k].active_lanes, 31 - k) << k;
    // The join waits for both sides' results: its producer is the later one of the two adds.
    EXPECT_NE(ops_at(w, join_add)[0].deps[0], kNoDep);
  }
  // ipdom: the branch on parity reconverges at $JOIN.
  EXPECT_EQ(f.cfg.reconvergence_pc(pc_of(f, ptx::Opcode::Bra, 0)), join_add);
}

// Lanes add 1.5 atomically into y[tid % groups].
const char* const kAtomics = R"(
.visible .entry atomics(.param .u64 atomics_y, .param .u32 atomics_groups)
{
  .reg .b32 %r<4>;
  .reg .f32 %f<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [atomics_y];
  ld.param.u32 %r1, [atomics_groups];
  mov.u32 %r2, %tid.x;
  rem.u32 %r3, %r2, %r1;
  mul.wide.u32 %rd2, %r3, 4;
  add.s64 %rd3, %rd1, %rd2;
  red.global.add.f32 [%rd3], 0f3FC00000;
  ret;
}
)";

TEST(InterpTrace, AtomicsSerialiseOnDistinctAddresses) {
  const ptx::PtxModule m = parse(kAtomics);
  const ptx::PtxFunction& f = m.function("atomics");
  for (int32_t groups : {1, 4, 32}) {
    LaunchPlan plan;
    plan.buffers = {output_buffer("y", 32, Dtype::F32)};
    HostMemory memory(plan);
    const auto traces = interpret_blocks(
        f, step_of("atomics", 64, {KernelArg::of_buffer("y"), KernelArg::of_scalar(groups)}, 2), memory, {0, 1});
    const auto red = ops_at(traces[0].warps[0], pc_of(f, ptx::Opcode::Red));
    ASSERT_EQ(red.size(), 1u);
    EXPECT_EQ(red[0].op, OpClass::Atomic);
    EXPECT_EQ(red[0].transactions, groups);
    const std::vector<float> y = read_buffer<float>(memory, "y", 32);
    for (int32_t g = 0; g < groups; ++g) EXPECT_EQ(y[g], 1.5f * 128 / groups) << g;
  }
}

TEST(InterpTrace, OutOfBoundsAccessNamesTheInstruction) {
  const ptx::PtxModule m = parse(kGather);
  LaunchPlan plan;
  plan.buffers = {input_buffer("in", std::vector<float>(32)), output_buffer("out", 32, Dtype::F32)};
  HostMemory memory(plan);
  try {
    run_launch(m.function("gather"),
               step_of("gather", 32, {KernelArg::of_buffer("in"), KernelArg::of_buffer("out"), KernelArg::of_scalar(2)}),
               memory);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("ld.global.nc.f32"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("outside"), std::string::npos) << e.what();
  }
}

TEST(InterpTrace, ArgumentsMustMatchTheParameters) {
  const ptx::PtxModule m = parse(kGather);
  LaunchPlan plan;
  plan.buffers = {output_buffer("out", 32, Dtype::F32)};
  HostMemory memory(plan);
  EXPECT_THROW(run_launch(m.function("gather"), step_of("gather", 32, {KernelArg::of_buffer("out")}), memory),
               InputError);
  EXPECT_THROW(run_launch(m.function("gather"),
                          step_of("gather", 32, {KernelArg::of_buffer("out"), KernelArg::of_buffer("out"),
                                                 KernelArg::of_scalar(1.0)}),  // f64 for a u32
                          memory),
               InputError);
}

// TMA descriptors and thread-block clusters are sm_90 hardware the interpreter has no model of:
// such a launch is declined, saying which, before anything runs.
TEST(InterpTrace, TensorMapAndClusterLaunchesAreDeclined) {
  const ptx::PtxModule m = parse(kGather);
  LaunchPlan plan;
  plan.buffers = {input_buffer("in", std::vector<float>(32)), output_buffer("out", 32, Dtype::F32)};
  HostMemory memory(plan);
  TensorMapArg map;
  map.buffer = "in";
  map.dims = {32};
  map.box = {32};
  const LaunchStep tma =
      step_of("gather", 32, {KernelArg::of_tensor_map(map), KernelArg::of_buffer("out"), KernelArg::of_scalar(1)});
  try {
    run_launch(m.function("gather"), tma, memory);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("tensor map"), std::string::npos) << e.what();
  }
  LaunchStep clustered =
      step_of("gather", 32, {KernelArg::of_buffer("in"), KernelArg::of_buffer("out"), KernelArg::of_scalar(1)}, 2);
  clustered.cluster.x = 2;
  try {
    run_launch(m.function("gather"), clustered, memory);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("clusters"), std::string::npos) << e.what();
  }
}

TEST(InterpTrace, UnsupportedInstructionsAreNamed) {
  const std::string kernel = R"(
.visible .entry tex_user(.param .u64 p)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  tex.1d.v4.s32.s32 {%r1, %r2, %r3, %r4}, [%rd1, {%r5}];
  ret;
}
)";
  try {
    parse(kernel);
    FAIL() << "no error";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("tex.1d.v4.s32.s32"), std::string::npos) << what;
    EXPECT_NE(what.find("line 10"), std::string::npos) << what;
  }
  EXPECT_THROW(parse(".visible .entry k()\n{\n bar.arrive 0, 64;\n ret;\n}\n"), InputError);
  EXPECT_THROW(parse(".visible .entry k()\n{\n .reg .b32 %r<2>;\n add.s32 %r1, %r9, 1;\n ret;\n}\n"), InputError);
  EXPECT_THROW(parse(".func f()\n{\n ret;\n}\n"), InputError);
}

}  // namespace
}  // namespace ktune::interp
