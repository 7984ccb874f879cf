#include "workload/csr_builder.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "workload/input_error.h"
#include "csr_entries.h"

namespace ktune {
namespace {

using testing_support::Entries;
using testing_support::to_entries;

CooPart part_of(std::initializer_list<std::tuple<int, int, double>> entries) {
  CooPart part;
  for (const auto& [r, c, v] : entries) part.add(r, c, v);
  return part;
}

TEST(BuildCsr, SumsOrKeepsTheFirstOfRepeatedEntriesAcrossParts) {
  auto parts = [] {
    std::vector<CooPart> p;
    p.push_back(part_of({{1, 2, 1.0}, {0, 0, 5.0}, {1, 2, 2.0}}));
    p.push_back(part_of({{1, 2, 4.0}, {1, 0, 3.0}}));
    return p;
  };
  EXPECT_EQ(to_entries(build_csr(2, 3, parts(), Mirror::None, Duplicates::Sum)),
            (Entries{{{0, 0}, 5.0}, {{1, 0}, 3.0}, {{1, 2}, 7.0}}));
  EXPECT_EQ(to_entries(build_csr(2, 3, parts(), Mirror::None, Duplicates::KeepFirst)),
            (Entries{{{0, 0}, 5.0}, {{1, 0}, 3.0}, {{1, 2}, 1.0}}));
}

TEST(BuildCsr, MirrorsOffDiagonalEntries) {
  std::vector<CooPart> p;
  p.push_back(part_of({{2, 0, 1.5}, {1, 1, 2.0}}));
  EXPECT_EQ(to_entries(build_csr(3, 3, std::move(p), Mirror::SkewSymmetric, Duplicates::Sum)),
            (Entries{{{2, 0}, 1.5}, {{0, 2}, -1.5}, {{1, 1}, 2.0}}));
}

// Many parts, rows given in reverse: the result matches a map filled entry by entry, and
// whichever the number of parts, the first entry in input order wins.
TEST(BuildCsr, ManyPartsMatchSequentialInsertion) {
  std::mt19937 rng(3);
  for (int part_count : {1, 2, 7}) {
    std::vector<CooPart> parts(static_cast<size_t>(part_count));
    Entries first_seen;
    for (int k = 0; k < 20000; ++k) {
      const int r = 99 - static_cast<int>(rng() % 100), c = static_cast<int>(rng() % 50);
      const double v = k;
      parts[static_cast<size_t>(k * part_count / 20000)].add(r, c, v);
      first_seen.emplace(std::make_pair(r, c), v);
    }
    EXPECT_EQ(to_entries(build_csr(100, 50, std::move(parts), Mirror::None, Duplicates::KeepFirst)),
              first_seen)
        << part_count;
  }
}

TEST(BuildCsr, TallMatrixWithFewEntries) {
  std::vector<CooPart> parts(4);
  parts[3].add(999999, 1, 2.0);
  const CsrF64 m = build_csr(1000000, 2, std::move(parts), Mirror::None, Duplicates::Sum);
  EXPECT_EQ(m.nnz(), 1);
  EXPECT_EQ(m.row_ptr[999999], 0);
  EXPECT_EQ(m.row_ptr[1000000], 1);
}

}  // namespace
}  // namespace ktune
