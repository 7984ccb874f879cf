// Typed problems: a family's schema validates a request's parameters before anything is loaded,
// and the canonical form (defaults filled, keys sorted) is what answers are keyed by.
#include "kernels/problem.h"

#include <gtest/gtest.h>

#include "workload/input_error.h"

namespace ktune {
namespace {

ProblemSchema spmm_like() {
  ProblemSchema s;
  s.fields = {ProblemField::integer("k", 1, 1024, 32, "dense columns"),
              ProblemField::number("tolerance", 0, 1, 1e-6, "convergence"),
              ProblemField::integer_list("sources", 0, 1 << 30, 4, nlohmann::json::array(), "start vertices"),
              ProblemField::choice("layout", {"nn", "nt"}, "nn", "operand layouts")};
  return s;
}

std::string error_of(const nlohmann::json& given) {
  try {
    spmm_like().validate(given);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ProblemSchema, DefaultsFillTheCanonicalForm) {
  const nlohmann::json p = spmm_like().validate(nullptr);
  EXPECT_EQ(p.dump(), R"({"k":32,"layout":"nn","sources":[],"tolerance":1e-06})");
  EXPECT_EQ(spmm_like().validate({{"layout", "nt"}, {"k", 128.0}})["k"], 128);
  const Problem terse{spmm_like().validate({{"k", 128}}), {}};
  const Problem spelled_out{spmm_like().validate({{"k", 128}, {"layout", "nn"}}), {}};
  EXPECT_EQ(terse.key(), spelled_out.key());
}

TEST(ProblemSchema, RefusesWithWhatItAccepts) {
  EXPECT_NE(error_of({{"k", 0}}).find("problem.k is 0, out of range; it accepts an integer in 1..1024"), std::string::npos)
      << error_of({{"k", 0}});
  EXPECT_NE(error_of({{"k", 2.5}}).find("must be an integer"), std::string::npos);
  EXPECT_NE(error_of({{"k", "big"}}).find("must be an integer"), std::string::npos);
  EXPECT_NE(error_of({{"width", 3}}).find("unknown problem parameter 'width'; this kernel takes k ("), std::string::npos);
  EXPECT_NE(error_of({{"layout", "tt"}}).find("one of 'nn' 'nt'"), std::string::npos);
  EXPECT_NE(error_of({{"sources", {1, 2, 3, 4, 5}}}).find("5 items"), std::string::npos);
  EXPECT_NE(error_of({{"sources", {1, -2}}}).find("out of range"), std::string::npos);
  EXPECT_NE(error_of(nlohmann::json::array()).find("must be an object"), std::string::npos);
  ProblemSchema required;
  required.fields = {ProblemField::integer("m", 1, 10, nullptr, "rows")};
  EXPECT_THROW(required.validate(nullptr), InputError);
}

TEST(ProblemSchema, TextIsPrintableAsciiOfBoundedLength) {
  ProblemSchema s;
  s.fields = {ProblemField::text("expression", 16, "", "an expression")};
  EXPECT_EQ(s.validate({{"expression", "T[i] += a[i]"}})["expression"], "T[i] += a[i]");
  EXPECT_EQ(s.validate(nullptr)["expression"], "");
  const auto refusal = [&s](const nlohmann::json& v) {
    try {
      s.validate({{"expression", v}});
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(refusal(std::string(17, 'x')).find("17 characters, too many"), std::string::npos);
  EXPECT_NE(refusal("a\nb").find("not printable ASCII"), std::string::npos);
  EXPECT_NE(refusal("\xc3\xa9").find("not printable ASCII"), std::string::npos);
  EXPECT_NE(refusal(3).find("must be a string"), std::string::npos);
}

TEST(Precision, ParsesUniformAndMixedForms) {
  EXPECT_EQ(precision_from_json("f64"), Precision::uniform(Dtype::F64));
  const Precision mixed = precision_from_json({{"input", "bf16"}, {"accumulate", "f32"}});
  EXPECT_EQ(mixed, (Precision{Dtype::BF16, Dtype::F32, Dtype::BF16}));
  EXPECT_EQ(to_string(mixed), "bf16:f32:bf16");
  EXPECT_EQ(precision_from_string(to_string(mixed)), mixed);
  EXPECT_EQ(to_string(Precision::uniform(Dtype::F32)), "f32");
  EXPECT_THROW(precision_from_json(7), InputError);
  EXPECT_THROW(precision_from_json({{"input", "f32"}, {"extra", "f32"}}), InputError);
  EXPECT_THROW(precision_from_string("f32:f32"), InputError);
  EXPECT_THROW(precision_from_string("f8"), InputError);
}

}  // namespace
}  // namespace ktune
