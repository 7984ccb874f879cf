// Every SpMV configuration's PTX (fp32 and fp64, as NVRTC emits it) parses, and its parts are
// consistent: parameters in launch order, a CFG that covers every instruction, immediate
// post-dominators that really post-dominate, def-use within the declared registers.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "model/ptx/ptx_op_class.h"
#include "model/ptx/ptx_parser.h"
#include "tests/ptx/spmv_ptx_corpus.h"

namespace ktune::ptx {
namespace {

using testing_support::spmv_ptx_corpus;

// Every path from `from` to the exit passes through `target` (or target is the exit).
bool post_dominates(const Cfg& cfg, uint32_t target, uint32_t from) {
  if (target == kExitBlock) return true;
  std::vector<bool> seen(cfg.blocks.size(), false);
  std::vector<uint32_t> stack{from};
  while (!stack.empty()) {
    const uint32_t b = stack.back();
    stack.pop_back();
    if (b == target) continue;
    if (seen[b]) continue;
    seen[b] = true;
    for (uint32_t s : cfg.blocks[b].successors) {
      if (s == kExitBlock) return false;  // reached the exit avoiding target
      stack.push_back(s);
    }
  }
  return true;
}

TEST(SpmvPtx, EveryConfigurationParses) {
  const auto& corpus = spmv_ptx_corpus();
  ASSERT_EQ(corpus.size(), 252u);  // 126 configurations x 2 dtypes
  std::set<Opcode> opcodes_seen;
  for (const auto& item : corpus) {
    SCOPED_TRACE(item.name);
    PtxModule m;
    ASSERT_NO_THROW(m = parse_ptx(item.ptx));
    // The matrix kernel; spmv_zero_rows beside it for the schedules that add into rows of y
    // (merge, adaptive, adaptive_hot); adaptive_hot's gather of x_hot too.
    const SpmvConfig c = SpmvConfig::from(item.config);
    const size_t kernels = 1 + (c.schedule == SpmvSchedule::Merge || c.is_adaptive()) +
                           (c.schedule == SpmvSchedule::AdaptiveHot);
    ASSERT_EQ(m.functions.size(), kernels);
    const PtxFunction& f = m.function(item.entry);
    EXPECT_TRUE(f.is_entry);
    ASSERT_FALSE(f.code.empty());
    // Parameters: names in order, pointers 8 bytes at aligned offsets.
    for (size_t i = 0; i < f.params.size(); ++i) {
      EXPECT_EQ(f.params[i].name, item.entry + "_param_" + std::to_string(i));
      EXPECT_EQ(f.params[i].offset % f.params[i].size, 0u);
    }
    EXPECT_EQ(f.params.back().type, DataType::U64);  // y
    EXPECT_EQ(f.params.back().size, 8u);
    // The CFG partitions the code and its edges agree both ways.
    uint32_t covered = 0;
    for (uint32_t b = 0; b < f.cfg.blocks.size(); ++b) {
      const BasicBlock& block = f.cfg.blocks[b];
      EXPECT_EQ(block.begin, covered);
      EXPECT_LT(block.begin, block.end);
      covered = block.end;
      for (uint32_t s : block.successors) {
        if (s == kExitBlock) continue;
        const auto& preds = f.cfg.blocks[s].predecessors;
        EXPECT_NE(std::find(preds.begin(), preds.end(), b), preds.end());
      }
      EXPECT_TRUE(post_dominates(f.cfg, block.ipdom, b)) << "block " << b;
      // ...and it is the nearest: every other post-dominator of b post-dominates ipdom too.
      if (block.ipdom != kExitBlock) {
        for (uint32_t other = 0; other < f.cfg.blocks.size(); ++other) {
          if (other != b && post_dominates(f.cfg, other, b)) {
            EXPECT_TRUE(post_dominates(f.cfg, other, block.ipdom)) << b << " " << other;
          }
        }
      }
    }
    EXPECT_EQ(covered, f.code.size());
    for (const Instruction& ins : f.code) {
      opcodes_seen.insert(ins.op);
      for (int i = 0; i < ins.read_count; ++i) EXPECT_LT(ins.reads[i], f.registers.size());
      for (int i = 0; i < ins.write_count; ++i) EXPECT_LT(ins.writes[i], f.registers.size());
    }
    // Every kernel reads global memory, writes y and ends.
    auto has = [&](OpClass c) {
      return std::any_of(f.code.begin(), f.code.end(), [&](const Instruction& i) { return op_class(i) == c; });
    };
    EXPECT_TRUE(has(OpClass::GlobalLoad));
    EXPECT_TRUE(has(OpClass::GlobalStore) || has(OpClass::Atomic));
    EXPECT_TRUE(has(OpClass::Exit));
    EXPECT_TRUE(has(item.dtype == Dtype::F32 ? OpClass::Fp32 : OpClass::Fp64));
  }
  // The family as a whole uses shuffles, barriers and atomics.
  for (Opcode op : {Opcode::Shfl, Opcode::Bar, Opcode::Atom, Opcode::Vote}) {
    EXPECT_TRUE(opcodes_seen.count(op)) << opcode_name(op);
  }
}

}  // namespace
}  // namespace ktune::ptx
