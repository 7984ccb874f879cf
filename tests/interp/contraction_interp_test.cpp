// Every CCSD(T) preset through both contraction kernels in the PTX interpreter, at a small
// extent, against the CPU reference: register tiles along one and two directions, partial
// unrolls of the summed loop, block tiles over one and two indices of each operand. A matrix
// product whose output comes from one operand takes one direction; tiles past the extent and
// sums staged in several passes are guarded.
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

Config direct(int64_t block, int64_t coarsen, int64_t coarsen2, int64_t unroll) {
  return {{"schedule", 0}, {"block", block}, {"coarsen", coarsen}, {"coarsen2", coarsen2}, {"unroll", unroll}, {"tile", 1}};
}

Config tiled(int64_t block, int64_t coarsen, int64_t coarsen2, int64_t unroll, int64_t tile) {
  return {{"schedule", 1},       {"block", block},   {"coarsen", coarsen},
          {"coarsen2", coarsen2}, {"unroll", unroll}, {"tile", tile}};
}

// Runs `config` on `p` in the interpreter and checks it against the reference.
void expect_matches_reference(const ContractionFamily& family, const Problem& p, const Config& config) {
  static const NvrtcCompiler compiler;
  const Workload w{WorkloadKind::Dense, {}};
  const ParameterSpace space = family.space(p);
  const std::string what = p.params.dump() + " " + to_string(p.precision.input) + " " + space.canonical(config);
  ASSERT_TRUE(space.valid(config)) << what << ": " << space.violation(config);
  const KernelSource s = family.source(p, config);
  const CompiledKernel k = compiler.compile(CompileRequest{s.code, s.entries, s.options, "sm_90"});
  ASSERT_TRUE(k.ok) << what << "\n" << k.log;
  const LaunchPlan plan = family.prepare(w, p, config);
  const Reference got = interp::compute_outputs(ptx::parse_ptx(k.ptx), plan);
  const Verdict v = family.verify(p, plan.outputs.at(0), output_bytes(got.at("t_out"), p.precision.input),
                                  family.reference(w, p).at("t_out"), check_data_of(plan));
  EXPECT_TRUE(v.ok) << what << ": " << v.message;
}

TEST(ContractionInterp, EveryPresetMatchesTheReference) {
  const ContractionFamily family;
  for (const auto& [preset, text] : contraction_presets())
    for (const Dtype dtype : {Dtype::F64, Dtype::F32}) {
      const Problem p = make_problem(family, {{"preset", preset}, {"extent", 4}}, Precision::uniform(dtype));
      for (const Config& config : {direct(64, 1, 1, 1), direct(32, 4, 1, 2), direct(32, 2, 4, 1), direct(128, 4, 2, 4),
                                   tiled(32, 1, 1, 1, 4), tiled(64, 2, 2, 2, 16), tiled(32, 4, 1, 4, 8)})
        expect_matches_reference(family, p, config);
    }
}

TEST(ContractionInterp, AnOutputFromOneOperandTilesAlongItsFastestIndexOnly) {
  const ContractionFamily family;
  const Problem p = make_problem(family, {{"expression", "C[i,j] = A[i,j,k] * B[k]"}, {"extent", 6}},
                                 Precision::uniform(Dtype::F64));
  expect_matches_reference(family, p, direct(32, 2, 1, 2));
  expect_matches_reference(family, p, tiled(32, 1, 1, 1, 32));
}

TEST(ContractionInterp, TiledBlocksPastTheExtentAndSumsInSeveralPassesAreGuarded) {
  const ContractionFamily family;
  // Extent 5 in tiles of 8: every block's tile runs past the tensor along all four of its sides.
  const Problem ragged = make_problem(family, {{"preset", "sd_t_d2_1"}, {"extent", 5}}, Precision::uniform(Dtype::F64));
  expect_matches_reference(family, ragged, tiled(64, 2, 2, 1, 16));
  // 36 summed terms over two indices, staged 32 at a time.
  const Problem two_sums = make_problem(family, {{"expression", "C[i,j] -= A[k,i,l] * B[j,l,k]"}, {"extent", 6}},
                                        Precision::uniform(Dtype::F32));
  expect_matches_reference(family, two_sums, tiled(32, 1, 2, 8, 8));
}

}  // namespace
}  // namespace ktune
