// The contraction family's index notation, presets, reference and limits (no GPU; the kernel
// against the reference runs in tests/interp/contraction_interp_test.cpp and the conformance
// suite).
#include <gtest/gtest.h>

#include "kernels/contraction/contraction_family.h"
#include "kernels/contraction/contraction_reference.h"
#include "kernels/contraction/contraction_spec.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

std::string refusal(const std::string& expression) {
  try {
    ContractionSpec::parse(expression, 4);
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(ContractionSpec, EveryPresetIsASixIndexTriplesTermSummedOverOneIndex) {
  ASSERT_EQ(contraction_presets().size(), 18u);
  for (const auto& [name, text] : contraction_presets()) {
    const ContractionSpec s = ContractionSpec::parse(text, 16);
    EXPECT_EQ(s.out.size(), 6u) << name;
    EXPECT_EQ(s.contracted(), std::vector<std::string>{name.rfind("sd_t_d1", 0) == 0 ? "h7" : "p7"}) << name;
    EXPECT_EQ(s.out_elements(), int64_t{1} << 24) << name;
    EXPECT_EQ(s.text(), text) << name;  // the canonical form is the preset's own
  }
}

TEST(ContractionSpec, StridesFollowTheFirstIndexFastest) {
  const ContractionSpec s = ContractionSpec::parse("T3[h3,h2,h1,p6,p5,p4] -= t2[h7,p4,p5,h1] * v2[h3,h2,p6,h7]", 16);
  EXPECT_EQ(s.sign, -1);
  EXPECT_EQ(s.strides_in(s.a, s.out), (std::vector<int64_t>{0, 0, 4096, 0, 256, 16}));
  EXPECT_EQ(s.strides_in(s.b, s.out), (std::vector<int64_t>{1, 16, 0, 256, 0, 0}));
  EXPECT_EQ(s.strides_in(s.a, s.contracted()), std::vector<int64_t>{1});
  EXPECT_EQ(s.strides_in(s.b, s.contracted()), std::vector<int64_t>{4096});
}

TEST(ContractionSpec, RefusesWhatIsNotATwoOperandContraction) {
  EXPECT_NE(refusal("C[i,j] += A[i,k] * B[k,j,i]").find("exactly one operand"), std::string::npos);
  EXPECT_NE(refusal("C[i,j] += A[i,k] * B[l,j]").find("in one operand only"), std::string::npos);
  EXPECT_NE(refusal("C[i,j] += A[i] * B[j]").find("share no index"), std::string::npos);
  EXPECT_NE(refusal("C[i,i] += A[i,k] * B[k,i]").find("repeats an index"), std::string::npos);
  EXPECT_NE(refusal("C[i,j += A[i,k] * B[k,j]").find("not closed"), std::string::npos);
  EXPECT_NE(refusal("C[i,j] *= A[i,k] * B[k,j]").find("'+=', '-=' or '='"), std::string::npos);
  EXPECT_NE(refusal("C[i,j] += A[i,k] * B[k,j] + D[i]").find("unexpected text"), std::string::npos);
  EXPECT_NE(refusal("C[a,b,c,d,e,f,g,h,i] += A[a,b,c,d,e,f,g,h,z] * B[z,i]").find("more than 8"), std::string::npos);
  EXPECT_EQ(refusal("C(i, j) = A(i, k) * B(k, j)"), "accepted");
}

TEST(ContractionReference, AMatrixProductWrittenAsAContractionIsThatProduct) {
  // C[i,j] = in + Σ_k A[i,k] B[k,j], first index fastest: element (i, j) at i + 3 j.
  const ContractionSpec s = ContractionSpec::parse("C[i,j] += A[i,k] * B[k,j]", 3);
  const std::vector<double> in = contraction_operand(ContractionTensor::In, 9);
  const std::vector<double> a = contraction_operand(ContractionTensor::A, 9);
  const std::vector<double> b = contraction_operand(ContractionTensor::B, 9);
  const std::vector<double> c = contraction_reference(s);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double expected = in[i + 3 * j];
      for (int k = 0; k < 3; ++k) expected += a[i + 3 * k] * b[k + 3 * j];
      EXPECT_DOUBLE_EQ(c[i + 3 * j], expected) << i << "," << j;
    }
}

TEST(ContractionReference, OperandsAreSixtyFourthsInMinusOneToOne) {
  for (double v : contraction_operand(ContractionTensor::B, 1000)) {
    EXPECT_GE(v, -1.0);
    EXPECT_LE(v, 1.0);
    EXPECT_EQ(v * 64, std::round(v * 64));
  }
}

TEST(ContractionFamily, RefusesProblemsTooLargeAndExpressionsThatDoNotParse) {
  const ContractionFamily family;
  const Workload dense{WorkloadKind::Dense, {}};
  const auto problem = [&](const nlohmann::json& params) {
    return make_problem(family, params, Precision::uniform(Dtype::F64));
  };
  EXPECT_NO_THROW(family.check_problem(dense, problem({{"preset", "sd_t_d2_5"}, {"extent", 16}})));
  EXPECT_THROW(family.check_problem(dense, problem({{"extent", 64}})), LimitError);  // 2 x 64^6 doubles
  // Refused before any count is formed: 1024^6 elements do not fit the arithmetic.
  EXPECT_THROW(ContractionSpec::of(problem({{"extent", 1024}})), LimitError);
  EXPECT_THROW(family.check_problem(dense, problem({{"expression", "C[i] += A[i] * B[i]"}})), InputError);
  const Problem custom = problem({{"expression", "C[i,j] += A[i,k] * B[k,j]"}, {"extent", 32}});
  EXPECT_DOUBLE_EQ(family.flops(dense, custom), 2.0 * 32 * 32 * 32);
  EXPECT_DOUBLE_EQ(family.min_bytes(dense, custom), 8.0 * (2 * 32 * 32 + 2 * 32 * 32));
}

Config direct(int64_t block, int64_t coarsen, int64_t coarsen2) {
  return {{"schedule", 0}, {"block", block}, {"coarsen", coarsen}, {"coarsen2", coarsen2}, {"unroll", 2}, {"tile", 1}};
}

Config tiled(int64_t block, int64_t coarsen, int64_t coarsen2, int64_t tile) {
  return {{"schedule", 1}, {"block", block}, {"coarsen", coarsen}, {"coarsen2", coarsen2}, {"unroll", 1}, {"tile", tile}};
}

TEST(ContractionFamily, ADirectTilesCoarseningsDivideTheExtentAndNeedTwoOperandsInTheOutput) {
  const ContractionFamily family;
  const Problem p = make_problem(family, {{"extent", 12}}, Precision::uniform(Dtype::F64));
  const ParameterSpace s = family.space(p);
  EXPECT_TRUE(s.valid(direct(128, 4, 2)));
  EXPECT_FALSE(s.valid(direct(128, 8, 1)));
  EXPECT_FALSE(s.valid(direct(128, 4, 8)));
  // Every output index from A: no second direction.
  const Problem one_sided = make_problem(family, {{"expression", "C[i,j] += A[i,j,k] * B[k]"}, {"extent", 8}},
                                         Precision::uniform(Dtype::F64));
  EXPECT_TRUE(family.space(one_sided).valid(direct(64, 2, 1)));
  EXPECT_FALSE(family.space(one_sided).valid(direct(64, 2, 2)));
}

// The tiled block spans `tile` outputs along the fastest index and then the next index of its
// operand, and block * coarsen * coarsen2 / tile along at most two of the other operand's.
TEST(ContractionFamily, ATiledBlockSpansAtMostTwoIndicesOfEachOperand) {
  const ContractionFamily family;
  const Problem p = make_problem(family, {{"preset", "sd_t_d1_1"}, {"extent", 16}}, Precision::uniform(Dtype::F64));
  const ParameterSpace s = family.space(p);
  EXPECT_TRUE(s.valid(tiled(128, 2, 4, 32)));  // 16 x 2 along h3, h2; 16 x 2 along t2's h1, p5
  EXPECT_FALSE(s.valid(tiled(128, 2, 4, 1024)));  // past the parameter's range
  EXPECT_TRUE(s.valid(tiled(32, 1, 8, 16)));       // 16 along h3, 16 along h1
  EXPECT_FALSE(s.valid(tiled(1024, 1, 2, 4))) << "512 along n: more than two of t2's indices";
  EXPECT_FALSE(s.valid(tiled(128, 1, 1, 256))) << "256 threads along m in a block of 128";
  EXPECT_FALSE(s.valid(tiled(64, 8, 1, 4))) << "coarsen beyond the tile";
  EXPECT_FALSE(s.valid({{"schedule", 0}, {"block", 128}, {"coarsen", 1}, {"coarsen2", 1}, {"unroll", 1}, {"tile", 16}}));
  // Every output index from A: the block has no n side, so its threads all lie along m.
  const Problem one_sided = make_problem(family, {{"expression", "C[i,j] += A[i,j,k] * B[k]"}, {"extent", 8}},
                                         Precision::uniform(Dtype::F64));
  EXPECT_TRUE(family.space(one_sided).valid(tiled(32, 1, 1, 32)));
  EXPECT_FALSE(family.space(one_sided).valid(tiled(64, 1, 1, 32)));
  EXPECT_FALSE(family.space(one_sided).valid(tiled(32, 1, 1, 128))) << "8 x 16: j has 8";
}

TEST(ContractionFamily, TheWalkStartsInsideTheSpaceAndEveryStepStaysThere) {
  const ContractionFamily family;
  const Problem p = make_problem(family, {{"preset", "sd_t_d2_7"}, {"extent", 16}}, Precision::uniform(Dtype::F64));
  const ParameterSpace space = family.space(p);
  const CanonicalMoves moves = family.canonical_moves(p);
  ASSERT_EQ(moves.starts.size(), 2u);  // one a schedule
  ASSERT_EQ(moves.directions.size(), 5u);
  for (const CanonicalDirection& d : moves.directions) {
    int steps = 0;
    for (Config c : moves.starts)
      while (std::optional<Config> next = d.step(c)) {
        EXPECT_TRUE(space.valid(*next)) << d.name << " " << space.violation(*next);
        c = *next;
        ++steps;
      }
    EXPECT_GT(steps, 0) << d.name << " never moves";
  }
}

}  // namespace
}  // namespace ktune
