// Basic blocks, edges and immediate post-dominators of small hand-written PTX, and the
// decoded form of a few instructions.
#include <gtest/gtest.h>

#include "model/ptx/ptx_op_class.h"
#include "model/ptx/ptx_parser.h"
#include "workload/input_error.h"

namespace ktune::ptx {
namespace {

PtxFunction parse_one(const std::string& body) {
  PtxModule m = parse_ptx(".version 8.0\n.target sm_90\n.address_size 64\n" + body);
  return m.functions.at(0);
}

// 0: entry, branches to 2 (early return) or falls to 1; 1 loops on itself, then 3 (diamond
// head) -> 4 | 5 -> 6 (join) -> ret. Block 2 returns early.
const char* const kShapes = R"(
.visible .entry shapes(.param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  ld.param.u32 %r1, [n];
  setp.eq.s32 %p1, %r1, 0;
  @%p1 bra $RET;
$LOOP:
  add.s32 %r1, %r1, -1;
  setp.ne.s32 %p2, %r1, 0;
  @%p2 bra $LOOP;
  setp.lt.s32 %p3, %r1, 5;
  @%p3 bra $ELSE;
  mov.u32 %r2, 1;
  bra.uni $JOIN;
$ELSE:
  mov.u32 %r2, 2;
$JOIN:
  add.s32 %r3, %r2, 1;
  ret;
$RET:
  ret;
}
)";

TEST(PtxCfg, BlocksEdgesAndPostDominators) {
  const PtxFunction f = parse_one(kShapes);
  const Cfg& cfg = f.cfg;
  ASSERT_EQ(cfg.blocks.size(), 7u);
  auto block_at = [&](uint32_t pc) { return cfg.block_of.at(pc); };
  // entry | loop | diamond head | then | else | join | early return
  EXPECT_EQ(cfg.blocks[0].successors, (std::vector<uint32_t>{6, 1}));
  EXPECT_EQ(cfg.blocks[1].successors, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(cfg.blocks[2].successors, (std::vector<uint32_t>{4, 3}));
  EXPECT_EQ(cfg.blocks[3].successors, (std::vector<uint32_t>{5}));
  EXPECT_EQ(cfg.blocks[5].successors, (std::vector<uint32_t>{kExitBlock}));
  // The early return and the main path meet only at the exit.
  EXPECT_EQ(cfg.blocks[0].ipdom, kExitBlock);
  EXPECT_EQ(cfg.blocks[1].ipdom, 2u);  // the loop's exit
  EXPECT_EQ(cfg.blocks[2].ipdom, 5u);  // the diamond's join
  EXPECT_EQ(cfg.blocks[3].ipdom, 5u);
  EXPECT_EQ(cfg.blocks[4].ipdom, 5u);
  EXPECT_EQ(cfg.reconvergence_pc(cfg.blocks[2].end - 1), cfg.blocks[5].begin);
  EXPECT_EQ(cfg.reconvergence_pc(cfg.blocks[0].end - 1), kExitBlock);
  EXPECT_EQ(block_at(0), 0u);
  EXPECT_EQ(cfg.blocks[5].predecessors, (std::vector<uint32_t>{3, 4}));
}

TEST(PtxDecode, OperandsModifiersAndDefUse) {
  const PtxFunction f = parse_one(R"(
.visible .entry decode(.param .u64 decode_p, .param .u32 decode_n)
{
  .reg .pred %p<3>;
  .reg .b32 %r<10>;
  .reg .f64 %fd<4>;
  .reg .b64 %rd<4>;
  .shared .align 8 .b8 tile[256];
  ld.param.u64 %rd1, [decode_p];
  ld.global.nc.v2.u32 {%r1, %r2}, [%rd1+-8];
  shfl.sync.down.b32 %r3|%p1, %r1, 16, 31, -1;
  @!%p1 atom.global.add.f64 %fd1, [%rd1], %fd2;
  mov.u32 %r4, tile;
  ld.shared.f64 %fd3, [tile+8];
  fma.rn.f64 %fd1, %fd2, %fd3, 0d3FF0000000000000;
  ret;
}
)");
  ASSERT_EQ(f.params.size(), 2u);
  EXPECT_EQ(f.params[1].offset, 8u);
  EXPECT_EQ(f.param_bytes, 12u);
  const Instruction& ld = f.code[1];
  EXPECT_EQ(ld.op, Opcode::Ld);
  EXPECT_EQ(ld.space, StateSpace::Global);
  EXPECT_TRUE(ld.non_coherent);
  EXPECT_EQ(ld.vector, 2);
  EXPECT_EQ(ld.type, DataType::U32);
  EXPECT_EQ(ld.operands[0].kind, OperandKind::Vector);
  EXPECT_EQ(ld.operands[1].kind, OperandKind::Address);
  EXPECT_EQ(ld.operands[1].value, -8);
  EXPECT_EQ(ld.write_count, 2);
  EXPECT_EQ(ld.read_count, 1);
  EXPECT_EQ(op_class(ld), OpClass::GlobalLoad);
  const Instruction& shfl = f.code[2];
  EXPECT_EQ(shfl.shfl, ShflMode::Down);
  EXPECT_EQ(shfl.dst_count, 2);
  EXPECT_EQ(shfl.operands[3].kind, OperandKind::Imm);
  EXPECT_EQ(shfl.operands[3].value, 16);
  EXPECT_EQ(shfl.operands[5].value, -1);
  EXPECT_EQ(op_class(shfl), OpClass::Shuffle);
  const Instruction& atom = f.code[3];
  EXPECT_EQ(atom.atomic, AtomicOp::Add);
  EXPECT_TRUE(atom.guard_negated);
  EXPECT_NE(atom.guard, kNoReg);
  EXPECT_EQ(op_class(atom), OpClass::Atomic);
  EXPECT_EQ(atom.read_count, 3);  // guard, address, value
  EXPECT_EQ(f.code[4].operands[1].kind, OperandKind::Imm);  // a symbol's shared offset
  EXPECT_EQ(f.code[4].operands[1].value, 0);
  EXPECT_EQ(f.code[5].operands[1].value, 8);
  EXPECT_EQ(op_class(f.code[5]), OpClass::SharedLoad);
  EXPECT_EQ(f.code[6].operands[3].imm_kind, ImmKind::F64Bits);
  EXPECT_EQ(op_class(f.code[6]), OpClass::Fp64);
  EXPECT_TRUE(vanishes_in_sass(f.code[0]));
  EXPECT_TRUE(vanishes_in_sass(f.code[4]));
  EXPECT_FALSE(vanishes_in_sass(f.code[6]));
}

// NVRTC declares a kernel's `extern __shared__` array at module scope, unsized: it starts where
// the kernel's static shared memory ends.
TEST(PtxDecode, ModuleScopeExternSharedIsTheDynamicArea) {
  const PtxFunction f = parse_one(R"(
.extern .shared .align 16 .b8 dynamic_area[];
.visible .entry k()
{
  .reg .b32 %r<3>;
  .shared .align 4 .b8 fixed[12];
  mov.u32 %r1, dynamic_area;
  mov.u32 %r2, fixed;
  ret;
}
)");
  EXPECT_EQ(f.static_shared_bytes, 12u);
  EXPECT_EQ(f.code[0].operands[1].value, 16);  // 12 rounded up to the array's alignment
  EXPECT_EQ(f.code[1].operands[1].value, 0);
  EXPECT_THROW(parse_one(".extern .func f();\n.visible .entry k()\n{\n ret;\n}\n"), InputError);
}

TEST(PtxDecode, ErrorsNameTheLine) {
  try {
    parse_one(".visible .entry k()\n{\n ret;\n frobnicate.b32 %r1;\n}\n");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("frobnicate.b32"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("line 7"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_one(".visible .entry k()\n{\n bra $NOWHERE;\n}\n"), InputError);
  EXPECT_THROW(parse_one(".visible .entry k()\n{\n .local .align 4 .b8 stack[16];\n ret;\n}\n"), InputError);
}

}  // namespace
}  // namespace ktune::ptx
