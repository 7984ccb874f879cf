#include "workload/generator_spec.h"

#include <gtest/gtest.h>

#include <chrono>

#include "workload/generators.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

using nlohmann::json;

void expect_identical(const CsrF64& a, const CsrF64& b) {
  EXPECT_EQ(a.rows, b.rows);
  EXPECT_EQ(a.cols, b.cols);
  EXPECT_EQ(a.row_ptr, b.row_ptr);
  EXPECT_EQ(a.col_idx, b.col_idx);
  EXPECT_EQ(a.values, b.values);
}

std::string error_of(const json& spec, const ReadLimits& limits = {}) {
  try {
    generate_from_spec(spec, limits);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(GeneratorSpec, EachFormCallsItsGenerator) {
  expect_identical(generate_from_spec({{"generator", "stencil2d"}, {"n", 12}}, {}),
                   generate_stencil_2d(12));
  expect_identical(generate_from_spec({{"generator", "stencil3d"}, {"n", 5}}, {}),
                   generate_stencil_3d(5));
  expect_identical(generate_from_spec(
                       {{"generator", "rmat"}, {"scale", 9}, {"edge_factor", 4}, {"seed", 3}}, {}),
                   generate_rmat(9, 4, 3));
  expect_identical(
      generate_from_spec(
          {{"generator", "uniform"}, {"rows", 50}, {"cols", 70}, {"per_row", 6}, {"seed", 2}}, {}),
      generate_uniform(50, 70, 6, 2));
  expect_identical(
      generate_from_spec({{"generator", "banded"}, {"n", 40}, {"bandwidth", 3}, {"seed", 4}}, {}),
      generate_banded(40, 3, 4));
  const json expanded = {
      {"generator", "block_expand"},
      {"block", 3},
      {"seed", 9},
      {"of", {{"generator", "uniform"}, {"rows", 8}, {"cols", 9}, {"per_row", 2}, {"seed", 5}}}};
  expect_identical(generate_from_spec(expanded, {}),
                   block_expand(generate_uniform(8, 9, 2, 5), 3, 9));
}

TEST(GeneratorSpec, SeedsUseTheFullUnsignedRange) {
  const uint64_t big = ~uint64_t{0} - 5;
  expect_identical(
      generate_from_spec({{"generator", "banded"}, {"n", 10}, {"bandwidth", 1}, {"seed", big}}, {}),
      generate_banded(10, 1, big));
}

TEST(GeneratorSpec, DescriptionIsCanonical) {
  EXPECT_EQ(describe_spec({{"generator", "rmat"}, {"scale", 16}, {"edge_factor", 16}, {"seed", 1}}),
            "rmat(scale=16,edge_factor=16,seed=1)");
  EXPECT_EQ(describe_spec(
                json::parse(R"({"seed": 1, "edge_factor": 16, "generator": "rmat", "scale": 16})")),
            "rmat(scale=16,edge_factor=16,seed=1)");
  EXPECT_EQ(describe_spec({{"generator", "stencil2d"}, {"n", 512}}), "stencil2d(n=512)");
  EXPECT_EQ(describe_spec(json::parse(
                R"({"generator": "block_expand", "of": {"n": 64, "generator": "stencil3d"},
                                          "seed": 1, "block": 3})")),
            "block_expand(block=3,seed=1,of=stencil3d(n=64))");
  EXPECT_NE(describe_spec(
                {{"generator", "uniform"}, {"rows", 5}, {"cols", 6}, {"per_row", 2}, {"seed", 1}}),
            describe_spec(
                {{"generator", "uniform"}, {"rows", 6}, {"cols", 5}, {"per_row", 2}, {"seed", 1}}));
}

TEST(GeneratorSpec, InvalidFieldsAreInputErrorsThatSayWhy) {
  auto expect = [](const json& spec, const std::string& problem) {
    const std::string message = error_of(spec);
    EXPECT_NE(message.find(problem), std::string::npos) << message;
    EXPECT_THROW(describe_spec(spec), InputError);
  };
  expect(json::array({1, 2}), "JSON object");
  expect({{"n", 5}}, "'generator' must be a string");
  expect({{"generator", "fractal"}}, "unknown generator 'fractal'");
  expect({{"generator", "stencil2d"}}, "missing field 'n'");
  expect({{"generator", "stencil2d"}, {"n", "512"}}, "'n' must be an integer");
  expect({{"generator", "stencil2d"}, {"n", 5.5}}, "'n' must be an integer");
  expect({{"generator", "stencil2d"}, {"n", 0}}, "'n' must be at least 1");
  expect({{"generator", "stencil2d"}, {"n", 5}, {"m", 5}}, "unknown field 'm'");
  expect({{"generator", "rmat"}, {"scale", 10}, {"edge_factor", 4}}, "missing field 'seed'");
  expect({{"generator", "rmat"}, {"scale", 10}, {"edge_factor", 4}, {"seed", -1}},
         "'seed' must be a non-negative");
  expect({{"generator", "uniform"}, {"rows", 5}, {"cols", 6}, {"per_row", 7}, {"seed", 1}},
         "cannot exceed 'cols'");
  expect({{"generator", "banded"}, {"n", 5}, {"bandwidth", 5}, {"seed", 1}}, "must be below 'n'");
  expect({{"generator", "block_expand"}, {"block", 2}, {"seed", 1}}, "missing field 'of'");
  expect({{"generator", "block_expand"},
          {"block", 2},
          {"seed", 1},
          {"of", {{"generator", "stencil2d"}}}},
         "stencil2d: missing field 'n'");
  json deep = {{"generator", "stencil2d"}, {"n", 2}};
  for (int i = 0; i < 6; ++i) {
    deep = {{"generator", "block_expand"}, {"block", 1}, {"seed", 1}, {"of", deep}};
  }
  expect(deep, "nests deeper");
}

TEST(GeneratorSpec, CheckSpecValidatesWithoutGenerating) {
  EXPECT_NO_THROW(
      check_spec({{"generator", "rmat"}, {"scale", 19}, {"edge_factor", 16}, {"seed", 1}}, {}));
  EXPECT_THROW(check_spec({{"generator", "rmat"}, {"scale", 19}, {"edge_factor", 16}}, {}),
               InputError);
  // 2^24 edges: beyond the default --max-nnz, decided without generating.
  EXPECT_THROW(check_spec({{"generator", "rmat"}, {"scale", 20}, {"edge_factor", 16}, {"seed", 1}}, {}), LimitError);
  EXPECT_THROW(check_spec({{"generator", "stencil2d"}, {"n", 100000}}, {}), LimitError);
}

TEST(GeneratorSpec, SizesBeyondLimitsFailBeforeGenerating) {
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(generate_from_spec({{"generator", "stencil2d"}, {"n", 100000}}, {}), LimitError);
  EXPECT_THROW(generate_from_spec({{"generator", "stencil3d"}, {"n", 1000000}}, {}), LimitError);
  EXPECT_THROW(generate_from_spec(
                   {{"generator", "rmat"}, {"scale", 1000}, {"edge_factor", 16}, {"seed", 1}}, {}),
               LimitError);
  EXPECT_THROW(generate_from_spec({{"generator", "uniform"},
                                   {"rows", 100000000},
                                   {"cols", 100000000},
                                   {"per_row", 50},
                                   {"seed", 1}},
                                  {}),
               LimitError);
  EXPECT_THROW(generate_from_spec({{"generator", "block_expand"},
                                   {"block", 1000},
                                   {"seed", 1},
                                   {"of", {{"generator", "stencil2d"}, {"n", 1000}}}},
                                  {}),
               LimitError);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(100));

  ReadLimits small;
  small.max_rows = small.max_cols = 1000;
  small.max_entries = 4000;
  EXPECT_NO_THROW(
      generate_from_spec({{"generator", "stencil2d"}, {"n", 28}}, small));  // 3808 entries
  EXPECT_THROW(generate_from_spec({{"generator", "stencil2d"}, {"n", 29}}, small),
               LimitError);  // 841 rows, 4089
  const std::string message = error_of({{"generator", "stencil2d"}, {"n", 32}}, small);
  EXPECT_NE(message.find("stencil2d(n=32) would have 1024 rows, more than the limit of 1000"),
            std::string::npos)
      << message;
}

// Found reviewing fuzz/fuzz_generator_spec: an expansion of an empty matrix holds no entries,
// so the limits let its block be 2^20 wide, and its b * b block values (8 TiB) were allocated.
TEST(GeneratorSpec, ExpandingAnEmptyMatrixAllocatesNoBlock) {
  const json spec = {{"generator", "block_expand"},
                     {"block", 1 << 20},
                     {"seed", 1},
                     {"of", {{"generator", "uniform"}, {"rows", 1}, {"cols", 1}, {"per_row", 0}, {"seed", 1}}}};
  const CsrF64 m = generate_from_spec(spec, {});
  EXPECT_EQ(m.rows, 1 << 20);
  EXPECT_EQ(m.nnz(), 0);
}

}  // namespace
}  // namespace ktune
