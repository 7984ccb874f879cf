// The wgmma kernels' operand staging (kernels/gemm/gemm_staging.h, gemm_stage.cu) without a
// GPU: the PTX interpreter runs a plan's copies on the generated operands of every layout, with
// k a multiple of 8 and not, in batches, and each staged buffer must hold the operand k-major,
// row by row, its rows padded with zeros to the product's k: element (b, row, kk) read from the
// operand where its layout stores it (GemmShape::a_index, b_index), the CPU twin of the copy.
#include <gtest/gtest.h>

#include <cstring>

#include "kernel_templates.h"
#include "kernels/gemm/gemm_family.h"
#include "kernels/gemm/gemm_staging.h"
#include "model/interp/host_memory.h"
#include "model/interp/interpreter.h"
#include "model/ptx/ptx_parser.h"
#include "tests/ptx/spmv_ptx_corpus.h"

namespace ktune::interp {
namespace {

uint16_t word_at(std::string_view bytes, int64_t index) {
  uint16_t w;
  std::memcpy(&w, bytes.data() + index * 2, 2);
  return w;
}

TEST(GemmStageInterp, TheCopiesHoldEveryOperandKMajorInPaddedRows) {
  const GemmFamily family;
  const Workload dense{WorkloadKind::Dense, {}};
  const CompileRequest request{std::string(templates::k_gemm_stage_cu), {"gemm_stage_k_major"},
                               {"-DKT_IN=unsigned short"}, "compute_90"};
  const ptx::PtxModule module = ptx::parse_ptx(testing_support::compile_to_ptx_cached(request));
  const nlohmann::json wgmma = {{"mma", "wgmma"}, {"decomposition", "data_parallel"}, {"bm", 64}, {"bn", 64},
                                {"bk", 64}, {"tm", 64}, {"tn", 64}, {"stages", 3}, {"split", 1},
                                {"sk_grid", 132}, {"raster", 1}, {"loader", "cp_async"}, {"cluster", 1}};
  int staged_operands = 0;
  for (const char* layout : {"nn", "nt", "tn", "tt"})
    for (int64_t k : {128, 133}) {  // several 64 x 64 tiles along k and m
      SCOPED_TRACE(std::string(layout) + " k=" + std::to_string(k));
      const Problem p = make_problem(family, {{"m", 70}, {"n", 45}, {"k", k}, {"batch", 2}, {"layout", layout}},
                                     {Dtype::BF16, Dtype::F32, Dtype::F32});
      const Config config = family.space(p).from_json(wgmma);
      const LaunchPlan plan = family.prepare(dense, p, config);
      const GemmShape s = GemmShape::of(p);
      const GemmStaging staged = GemmStaging::of(s, GemmConfig::from(config, p.precision));
      std::vector<PlanOp> copies;
      for (size_t i = 0; i + 1 < plan.steps.size(); ++i) copies.push_back(PlanOp::run(i));
      HostMemory memory(plan, HostMemory::Fill::Poison);
      run_program(module, plan, copies, memory);
      const int64_t kp = staged.run.k;
      EXPECT_EQ(kp, (k + 7) / 8 * 8);
      // The staged buffer `to` against the operand `from`: row r's element kk is the operand's
      // element stored at stored(batch, r, kk), zero from k on.
      auto expect_staged = [&](const char* from, const char* to, int64_t rows, auto stored) {
        ++staged_operands;
        const std::string_view source = memory.bytes_of(from), got = memory.bytes_of(to);
        for (int64_t batch = 0; batch < 2; ++batch)
          for (int64_t r = 0; r < rows; ++r)
            for (int64_t kk = 0; kk < kp; ++kk)
              ASSERT_EQ(word_at(got, (batch * rows + r) * kp + kk), kk < k ? word_at(source, stored(batch, r, kk)) : 0)
                  << to << " " << batch << "," << r << "," << kk;
      };
      if (staged.a)
        expect_staged("a", "a_k_major", s.m, [&](int64_t b, int64_t r, int64_t kk) { return s.a_index(b, r, kk); });
      if (staged.b)
        expect_staged("b", "b_k_major", s.n, [&](int64_t b, int64_t c, int64_t kk) { return s.b_index(b, kk, c); });
    }
  // nn, tn, tt at k 128 stage one, two, one; every layout at k 133 stages both.
  EXPECT_EQ(staged_operands, 1 + 2 + 1 + 8);
}

}  // namespace
}  // namespace ktune::interp
