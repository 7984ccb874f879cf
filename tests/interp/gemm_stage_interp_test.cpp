// The wgmma kernels' operand staging (kernels/gemm/gemm_staging.h, gemm_stage.cu) without a
// GPU: the PTX interpreter runs a plan's copies on the generated operands of every layout, with
// k a multiple of 16 bytes and not, bf16 and tf32, in batches, and each staged buffer must hold the operand k-major,
// row by row, its rows padded with zeros to the product's k: element (b, row, kk) read from the
// operand where its layout stores it (GemmShape::a_index, b_index), the CPU twin of the copy.
#include <gtest/gtest.h>

#include <cstring>

#include "kernel_templates.h"
#include "kernels/gemm/gemm_config.h"
#include "kernels/gemm/gemm_family.h"
#include "kernels/gemm/gemm_staging.h"
#include "model/interp/host_memory.h"
#include "model/interp/interpreter.h"
#include "model/ptx/ptx_parser.h"
#include "tests/ptx/spmv_ptx_corpus.h"

namespace ktune::interp {
namespace {

// Element `index` of a buffer of `size`-byte elements, as raw bits.
uint32_t word_at(std::string_view bytes, int64_t index, size_t size) {
  uint32_t w = 0;
  std::memcpy(&w, bytes.data() + index * size, size);
  return w;
}

// bf16 (16-bit elements, copied in pairs; rows padded to 8) and tf32 (32-bit, one a load; rows
// padded to 4).
class GemmStageInterp : public ::testing::TestWithParam<Dtype> {};

TEST_P(GemmStageInterp, TheCopiesHoldEveryOperandKMajorInPaddedRows) {
  const GemmFamily family;
  const Workload dense{WorkloadKind::Dense, {}};
  const Precision precision{GetParam(), Dtype::F32, Dtype::F32};
  const size_t size = dtype_size(precision.input);
  const int64_t align = 16 / static_cast<int64_t>(size);
  const CompileRequest request{std::string(templates::k_gemm_stage_cu), {"gemm_stage_k_major"},
                               {size == 2 ? "-DKT_IN=unsigned short" : "-DKT_IN=float"}, "compute_90"};
  const ptx::PtxModule module = ptx::parse_ptx(testing_support::compile_to_ptx_cached(request));
  const nlohmann::json wgmma = {{"mma", "wgmma"}, {"decomposition", "data_parallel"}, {"bm", 64}, {"bn", 64},
                                {"bk", gemm_wgmma_bk(precision)}, {"tm", 64}, {"tn", 64}, {"stages", 3}, {"split", 1},
                                {"sk_grid", 132}, {"raster", 1}, {"loader", "cp_async"}, {"cluster", 1}};
  int staged_operands = 0;
  for (const char* layout : {"nn", "nt", "tn", "tt"})
    for (int64_t k : {128, 133}) {  // several 64 x 64 tiles along k and m
      SCOPED_TRACE(std::string(layout) + " k=" + std::to_string(k));
      const Problem p = make_problem(family, {{"m", 70}, {"n", 45}, {"k", k}, {"batch", 2}, {"layout", layout}}, precision);
      const Config config = family.space(p).from_json(wgmma);
      const LaunchPlan plan = family.prepare(dense, p, config);
      const GemmShape s = GemmShape::of(p);
      const GemmStaging staged = GemmStaging::of(s, GemmConfig::from(config, p.precision), p.precision);
      std::vector<PlanOp> copies;
      for (size_t i = 0; i + 1 < plan.steps.size(); ++i) copies.push_back(PlanOp::run(i));
      HostMemory memory(plan, HostMemory::Fill::Poison);
      run_program(module, plan, copies, memory);
      const int64_t kp = staged.run.k;
      EXPECT_EQ(kp, (k + align - 1) / align * align);
      // The staged buffer `to` against the operand `from`: row r's element kk is the operand's
      // element stored at stored(batch, r, kk), zero from k on.
      auto expect_staged = [&](const char* from, const char* to, int64_t rows, auto stored) {
        ++staged_operands;
        const std::string_view source = memory.bytes_of(from), got = memory.bytes_of(to);
        for (int64_t batch = 0; batch < 2; ++batch)
          for (int64_t r = 0; r < rows; ++r)
            for (int64_t kk = 0; kk < kp; ++kk)
              ASSERT_EQ(word_at(got, (batch * rows + r) * kp + kk, size),
                        kk < k ? word_at(source, stored(batch, r, kk), size) : 0u)
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

INSTANTIATE_TEST_SUITE_P(Bf16AndTf32, GemmStageInterp, ::testing::Values(Dtype::BF16, Dtype::TF32),
                         [](const ::testing::TestParamInfo<Dtype>& i) { return std::string(to_string(i.param)); });

}  // namespace
}  // namespace ktune::interp
