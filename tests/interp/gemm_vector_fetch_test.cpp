// The GEMM kernels' vector loads (kt_fetch in gemm_common.cuh), run by the PTX interpreter.
// Only the tensor-core kernel loads vectors, and the interpreter cannot run mma; so the SIMT
// kernel is compiled here with the tensor kernel's vector width, which sends it through the
// same fetch: whole aligned vectors in one load, the ragged edges and unaligned rows element by
// element. Every layout, on shapes that take each path.
#include <gtest/gtest.h>

#include <cstring>

#include "gpu/nvrtc_compiler.h"
#include "kernels/gemm/gemm_family.h"
#include "model/interp/interpreter.h"
#include "model/ptx/ptx_parser.h"
#include "tests/kernels/plan_outputs.h"

namespace ktune {
namespace {

using testing_support::output_bytes;
using testing_support::check_data_of;

TEST(GemmVectorFetch, EveryLayoutMatchesTheReferenceOnAlignedAndRaggedShapes) {
  const GemmFamily family;
  const NvrtcCompiler compiler;
  // 16 x 16 tiles, slices of 8, 64 threads: 2 loads a thread, so vectors of 2 f32 (8 bytes).
  const Config config = {{"mma", 0}, {"decomposition", 0}, {"bm", 16}, {"bn", 16}, {"bk", 8}, {"tm", 2}, {"tn", 2},
                         {"stages", 2},        {"split", 1}, {"sk_grid", 132}, {"raster", 1}, {"loader", 0}, {"cluster", 1}};
  struct Shape {
    int m, n, k;
  };
  // Aligned (every vector whole), ragged (tiles cut by the edges) and odd (no row aligned).
  for (const Shape& shape : {Shape{32, 48, 24}, Shape{34, 42, 26}, Shape{33, 47, 25}})
    for (const char* layout : {"nn", "nt", "tn", "tt"}) {
      const Problem problem = make_problem(
          family, {{"m", shape.m}, {"n", shape.n}, {"k", shape.k}, {"layout", layout}}, Precision::uniform(Dtype::F32));
      const std::string what = std::string(layout) + " " + problem.params.dump();
      ASSERT_TRUE(family.space(problem).valid(config)) << what;
      KernelSource source = family.source(problem, config);
      bool widened = false;
      for (std::string& option : source.options)
        if (option.rfind("-DKT_VECTOR_BYTES=", 0) == 0) option = "-DKT_VECTOR_BYTES=8", widened = true;
      ASSERT_TRUE(widened) << "the family no longer sets KT_VECTOR_BYTES";
      const CompiledKernel k = compiler.compile(CompileRequest{source.code, source.entries, source.options, "sm_90"});
      ASSERT_TRUE(k.ok) << k.log;
      const Workload w{WorkloadKind::Dense, {}};
      const LaunchPlan plan = family.prepare(w, problem, config);
      const Reference got = interp::compute_outputs(ptx::parse_ptx(k.ptx), plan);
      const Reference expected = family.reference(w, problem);
      for (const PlanOutput& o : plan.outputs) {
        const Verdict v = family.verify(problem, o, output_bytes(got.at(o.buffer), Dtype::F32), expected.at(o.buffer),
                                        check_data_of(plan));
        EXPECT_TRUE(v.ok) << what << ": " << v.message;
      }
    }
}

}  // namespace
}  // namespace ktune
