// A C too large to check whole is checked on whole rows: the longest, the first, the last and
// rows spread between; the reference holds those rows alone and the worker reads back only them.
#include "kernels/spmm/spmm_checked_rows.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "kernels/input_vector.h"
#include "kernels/spmm/spmm_family.h"
#include "kernels/spmm/spmm_reference.h"
#include "plan_outputs.h"
#include "random_csr.h"

namespace ktune {
namespace {

using testing_support::check_data_of;
using testing_support::output_bytes;
using testing_support::read_back;

TEST(SpmmCheckedRows, SmallOutputsAreCheckedWhole) {
  const CsrF64 a = testing_support::random_csr(500, 500, 6, 1);
  EXPECT_TRUE(spmm_checked_rows(a, 32).empty());
  EXPECT_TRUE(spmm_checked_rows(a, 1024, 1000, 600).empty()) << "no more rows than the sample";
}

TEST(SpmmCheckedRows, TheSampleHoldsTheLongestTheFirstAndTheLastRows) {
  std::vector<int32_t> lengths(20000, 2);
  lengths[12345] = 900;
  lengths[777] = 500;
  const CsrF64 a = testing_support::csr_with_row_lengths(lengths, 1000);
  const std::vector<int32_t> rows = spmm_checked_rows(a, 64, 1000, 256);
  ASSERT_FALSE(rows.empty());
  EXPECT_LE(rows.size(), 256u);
  EXPECT_GT(rows.size(), 200u);
  EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end()));
  EXPECT_EQ(std::adjacent_find(rows.begin(), rows.end()), rows.end()) << "each row once";
  for (int32_t r : {0, 19999, 12345, 777}) EXPECT_TRUE(std::binary_search(rows.begin(), rows.end(), r)) << r;

  const std::vector<std::pair<size_t, size_t>> ranges = spmm_row_ranges({3, 4, 5, 9}, 8);
  EXPECT_EQ(ranges, (std::vector<std::pair<size_t, size_t>>{{24, 48}, {72, 80}}));
}

TEST(SpmmCheckedRows, TheRowsReferenceIsTheWholeReferencesRows) {
  const CsrF64 a = testing_support::random_csr(300, 200, 7, 5);
  const int32_t k = 12;
  const std::vector<double> whole =
      spmm_reference(a, deterministic_input_matrix(static_cast<size_t>(a.cols), static_cast<size_t>(k)), k);
  const std::vector<int32_t> rows = {0, 17, 18, 150, 299};
  const std::vector<double> some = spmm_reference_rows(a, k, rows);
  ASSERT_EQ(some.size(), rows.size() * k);
  for (size_t n = 0; n < rows.size(); ++n)
    for (int32_t j = 0; j < k; ++j) EXPECT_EQ(some[n * k + j], whole[static_cast<size_t>(rows[n]) * k + j]) << n;
}

// 70,000 rows at K = 64 is past the whole-check limit: the plan reads back the checked rows,
// the right C passes and an error in a checked row fails.
TEST(SpmmCheckedRows, TheFamilyChecksALargeCOnItsSample) {
  const SpmmFamily family;
  const Workload w = testing_support::workload_of(testing_support::random_csr(70000, 3000, 4, 9));
  const int32_t k = 64;
  const Problem p = Problem::of(Dtype::F64, {{"k", k}});
  const LaunchPlan plan = family.prepare(w, p, family.space(p).first_valid());
  const PlanOutput& c = plan.outputs.at(0);
  ASSERT_GT(c.sampled, 0u);
  EXPECT_EQ(c.read_elements(), c.sampled);
  EXPECT_LT(c.sampled, c.elements / 10);
  const std::vector<double> expected = family.reference(w, p).at("c");
  ASSERT_EQ(expected.size(), c.sampled);

  const std::vector<double> whole =
      spmm_reference(w.matrix, deterministic_input_matrix(static_cast<size_t>(w.matrix.cols), static_cast<size_t>(k)), k);
  std::vector<double> got = read_back(c, whole);
  EXPECT_TRUE(family.verify(p, c, output_bytes(got, Dtype::F64), expected, check_data_of(plan)).ok);
  got[got.size() / 2] += 1.0;
  EXPECT_FALSE(family.verify(p, c, output_bytes(got, Dtype::F64), expected, check_data_of(plan)).ok);
  // The next configuration's plan shares the check data and the sample.
  const LaunchPlan next = family.prepare_next(w, p, family.space(p).first_valid(), plan);
  EXPECT_EQ(next.outputs.at(0).read_ranges, c.read_ranges);
}

}  // namespace
}  // namespace ktune
