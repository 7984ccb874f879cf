#include "workload/edge_list.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "workload/input_error.h"
#include "csr_entries.h"

namespace ktune {
namespace {

using testing_support::Entries;
using testing_support::to_entries;

std::string error_of(const std::string& text, const ReadLimits& limits = {},
                     bool symmetrize = false) {
  try {
    parse_edge_list(text, limits, symmetrize);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(EdgeList, ReadsEdgesCommentsAndWeights) {
  const CsrF64 m =
      parse_edge_list("# a graph\n% also a comment\n0 1\n\n  2 0 2.5\r\n1 4\t-1e-3\n", {}, false);
  EXPECT_EQ(m.rows, 5);
  EXPECT_EQ(m.cols, 5);
  EXPECT_EQ(to_entries(m), (Entries{{{0, 1}, 1.0}, {{2, 0}, 2.5}, {{1, 4}, -1e-3}}));
}

TEST(EdgeList, RepeatedEdgeKeepsItsFirstWeight) {
  const CsrF64 m = parse_edge_list("0 1 3\n0 1 5\n1 0\n", {}, false);
  EXPECT_EQ(to_entries(m), (Entries{{{0, 1}, 3.0}, {{1, 0}, 1.0}}));
}

TEST(EdgeList, SymmetrizeAddsReverseEdgesOnce) {
  const CsrF64 m = parse_edge_list("0 1 2\n1 0 7\n2 2 4\n3 1\n", {}, true);
  EXPECT_EQ(to_entries(m),
            (Entries{{{0, 1}, 2.0}, {{1, 0}, 2.0}, {{2, 2}, 4.0}, {{3, 1}, 1.0}, {{1, 3}, 1.0}}));
}

// Enough lines for several threads; compared with a map built edge by edge.
TEST(EdgeList, LargeRandomListMatchesIndependentConstruction) {
  std::mt19937 rng(9);
  std::string text = "# random\n";
  Entries expected;
  for (int k = 0; k < 120000; ++k) {
    const int u = static_cast<int>(rng() % 2000), v = static_cast<int>(rng() % 2000);
    const double w = static_cast<double>(rng() % 64) / 4.0;
    text += std::to_string(u) + " " + std::to_string(v) + " " + std::to_string(w) + "\n";
    expected.emplace(std::make_pair(u, v), w);
    expected.emplace(std::make_pair(v, u), w);
  }
  ASSERT_GT(text.size(), size_t{2} << 20);
  EXPECT_EQ(to_entries(parse_edge_list(text, {}, true)), expected);
}

TEST(EdgeListErrors, NameLineAndProblem) {
  const std::string h = "# header\n0 1\n";
  auto expect = [&](const std::string& body, const std::string& line, const std::string& problem) {
    const std::string message = error_of(h + body);
    EXPECT_EQ(message.rfind(line + ": ", 0), 0u) << message;
    EXPECT_NE(message.find(problem), std::string::npos) << message;
  };
  expect("2 -1\n", "line 3", "target vertex id -1 is negative");
  expect("a 1\n", "line 3", "source vertex id 'a' is not an integer");
  expect("1.5 1\n", "line 3", "'1.5' is not an integer");
  expect("3\n", "line 3", "missing target");
  expect("1 2 w\n", "line 3", "weight 'w' is not a finite real number");
  expect("1 2 inf\n", "line 3", "finite");
  expect("1 2 3 4\n", "line 3", "unexpected '4'");
  expect("\n\n99999999999999999999 1\n", "line 5", "not an integer");
}

TEST(EdgeListErrors, NoEdges) {
  EXPECT_NE(error_of("# nothing\n\n").find("no edges"), std::string::npos);
  EXPECT_NE(error_of("").find("no edges"), std::string::npos);
}

TEST(EdgeListErrors, LimitsNameTheLine) {
  ReadLimits limits;
  limits.max_rows = 100;
  EXPECT_THROW(parse_edge_list("0 1\n0 100\n", limits, false), LimitError);
  EXPECT_EQ(error_of("0 1\n0 100\n", limits).rfind("line 2: target vertex id 100 is beyond", 0), 0u)
      << error_of("0 1\n0 100\n", limits);
  limits = {};
  limits.max_entries = 4;
  const std::string five = "0 1\n# c\n1 2\n2 3\n3 4\n4 5\n";
  EXPECT_EQ(to_entries(parse_edge_list("0 1\n1 2\n2 3\n3 4\n", limits, false)).size(), 4u);
  EXPECT_THROW(parse_edge_list(five, limits, false), LimitError);
  EXPECT_EQ(error_of(five, limits).rfind("line 6: more than 4 edges", 0), 0u)
      << error_of(five, limits);
  EXPECT_EQ(error_of(five, limits, true).rfind("line 4: more than 2 edges", 0), 0u)
      << error_of(five, limits, true);
  limits = {};
  limits.text_slack_bytes = 8;
  limits.bytes_per_entry = 4;
  EXPECT_EQ(to_entries(parse_edge_list("0 1\n1 2\n", limits, false)).size(), 2u);
  EXPECT_THROW(parse_edge_list("# comment\n0 1\n", limits, false), LimitError);
  limits = {};
  limits.max_rows = limits.max_cols = int64_t{1} << 30;
  const std::string far = "0 1\n0 " + std::to_string((1 << 20) + 100) + "\n";
  EXPECT_NE(error_of(far, limits).find("at most 1048608 rows"), std::string::npos) << error_of(far, limits);
}

}  // namespace
}  // namespace ktune
