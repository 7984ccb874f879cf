// Every CCSD(T) preset through the contraction kernel in the PTX interpreter, at a small extent,
// against the CPU reference: register tiles along one and two directions, and partial unrolls
// of the summed loop. A matrix product whose output comes from one operand takes one direction.
#include <gtest/gtest.h>

#include "gpu/nvrtc_compiler.h"
#include "kernels/contraction/contraction_family.h"
#include "kernels/contraction/contraction_spec.h"
#include "model/interp/interpreter.h"
#include "model/ptx/ptx_parser.h"
#include "tests/kernels/plan_outputs.h"

namespace ktune {
namespace {

using testing_support::check_data_of;
using testing_support::output_bytes;

TEST(ContractionInterp, EveryPresetMatchesTheReference) {
  const ContractionFamily family;
  const NvrtcCompiler compiler;
  const Workload w{WorkloadKind::Dense, {}};
  for (const auto& [preset, text] : contraction_presets())
    for (const Dtype dtype : {Dtype::F64, Dtype::F32}) {
      const Problem p = make_problem(family, {{"preset", preset}, {"extent", 4}}, Precision::uniform(dtype));
      const Reference expected = family.reference(w, p);
      for (const Config& config : {Config{{"block", 64}, {"coarsen", 1}, {"coarsen2", 1}, {"unroll", 1}},
                                   Config{{"block", 32}, {"coarsen", 4}, {"coarsen2", 1}, {"unroll", 2}},
                                   Config{{"block", 32}, {"coarsen", 2}, {"coarsen2", 4}, {"unroll", 1}},
                                   Config{{"block", 128}, {"coarsen", 4}, {"coarsen2", 2}, {"unroll", 4}}}) {
        const std::string what = preset + " " + to_string(dtype) + " " + family.space(p).canonical(config);
        const KernelSource s = family.source(p, config);
        const CompiledKernel k = compiler.compile(CompileRequest{s.code, s.entries, s.options, "sm_90"});
        ASSERT_TRUE(k.ok) << what << "\n" << k.log;
        const LaunchPlan plan = family.prepare(w, p, config);
        const Reference got = interp::compute_outputs(ptx::parse_ptx(k.ptx), plan);
        const Verdict v = family.verify(p, plan.outputs.at(0), output_bytes(got.at("t_out"), dtype),
                                        expected.at("t_out"), check_data_of(plan));
        EXPECT_TRUE(v.ok) << what << ": " << v.message;
      }
    }
}

TEST(ContractionInterp, AnOutputFromOneOperandTilesAlongItsFastestIndexOnly) {
  const ContractionFamily family;
  const NvrtcCompiler compiler;
  const Workload w{WorkloadKind::Dense, {}};
  const Problem p = make_problem(family, {{"expression", "C[i,j] = A[i,j,k] * B[k]"}, {"extent", 6}},
                                 Precision::uniform(Dtype::F64));
  const Config config{{"block", 32}, {"coarsen", 2}, {"coarsen2", 1}, {"unroll", 2}};
  const KernelSource s = family.source(p, config);
  const CompiledKernel k = compiler.compile(CompileRequest{s.code, s.entries, s.options, "sm_90"});
  ASSERT_TRUE(k.ok) << k.log;
  const LaunchPlan plan = family.prepare(w, p, config);
  const Reference got = interp::compute_outputs(ptx::parse_ptx(k.ptx), plan);
  EXPECT_TRUE(family.verify(p, plan.outputs.at(0), output_bytes(got.at("t_out"), Dtype::F64),
                            family.reference(w, p).at("t_out"), check_data_of(plan)).ok);
}

}  // namespace
}  // namespace ktune
