// CI's check of every SpMV device kernel without a GPU: the PTX interpreter runs each
// configuration's launch plan (fp32 and fp64) on small matrices with empty rows, a very long
// row and random structure, and its y must pass the same verification as a GPU run
// (kernels/output_check.h) against the CPU reference.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "kernels/output_check.h"
#include "model/interp/interpreter.h"
#include "model/ptx/ptx_parser.h"
#include "tests/kernels/plan_outputs.h"
#include "tests/kernels/random_csr.h"
#include "tests/kernels/spmv_refusal.h"
#include "workload/generators.h"
#include "workload/input_error.h"
#include "tests/ptx/spmv_ptx_corpus.h"

namespace ktune::interp {
namespace {

using testing_support::output_bytes;
using testing_support::check_data_of;

// The reduction check with one length per element (empty: 1 each).
Verdict verify_output(std::string_view out, Dtype dtype, const std::vector<double>& reference,
                      const std::vector<int32_t>& lengths) {
  return check_reduction_output(out, dtype, reference, [&lengths](size_t i) {
    return lengths.empty() ? 1.0 : static_cast<double>(lengths.at(i));
  });
}

using testing_support::random_csr;
using testing_support::spmv_refused;
using testing_support::spmv_ptx_corpus;

using testing_support::workload_of;
using testing_support::matrix_with_long_row;


// Row r's one entry in column r + reach: SELL-32 takes it, and 16-bit offsets past 32767 do not.
CsrF64 far_diagonal(int32_t rows, int32_t reach) {
  CsrF64 a;
  a.rows = rows;
  a.cols = rows + reach;
  for (int32_t r = 0; r <= rows; ++r) a.row_ptr.push_back(r);
  for (int32_t r = 0; r < rows; ++r) {
    a.col_idx.push_back(r + reach);
    a.values.push_back(0.5 + r);
  }
  return a;
}

std::vector<int32_t> row_lengths(const CsrF64& a) {
  std::vector<int32_t> n(a.rows);
  for (int32_t r = 0; r < a.rows; ++r) n[r] = std::max(1, a.row_ptr[r + 1] - a.row_ptr[r]);
  return n;
}

TEST(SpmvInterp, EveryConfigurationComputesTheReference) {
  const SpmvFamily family;
  const std::vector<std::pair<std::string, Workload>> workloads = {
      {"long row", workload_of(matrix_with_long_row(301, 24000, 20000, 7))},
      {"random", workload_of(random_csr(700, 500, 12, 11))},
      {"all empty", workload_of(random_csr(37, 20, 0, 3))},
      {"stencil", workload_of(generate_stencil_2d(15))},  // SELL-32 takes it: 225 rows, padded
      {"far diagonal", workload_of(far_diagonal(40, 32768))},  // sell takes it, sell16 does not
  };
  std::vector<std::vector<double>> references;
  for (const auto& [name, w] : workloads) references.push_back(family.reference(w, {}).at("y"));
  int checked = 0, refused = 0, sell_checked = 0, sell16_checked = 0, hot_checked = 0;
  for (const auto& item : spmv_ptx_corpus()) {
    const ptx::PtxModule module = ptx::parse_ptx(item.ptx);
    for (size_t i = 0; i < workloads.size(); ++i) {
      SCOPED_TRACE(item.name + " on " + workloads[i].first);
      const Workload& w = workloads[i].second;
      if (spmv_refused(item.config, w.matrix)) {
        EXPECT_THROW(family.prepare(w, Problem::of(item.dtype), item.config), InputError);
        ++refused;
        continue;
      }
      sell_checked += item.entry == "spmv_sell";
      sell16_checked += item.entry == "spmv_sell16";
      hot_checked += SpmvConfig::from(item.config).schedule == SpmvSchedule::AdaptiveHot;
      const LaunchPlan plan = family.prepare(w, Problem::of(item.dtype), item.config);
      std::vector<double> y;
      ASSERT_NO_THROW(y = compute_outputs(module, plan).at("y"));
      const Verdict v =
          verify_output(output_bytes(y, item.dtype), item.dtype, references[i], row_lengths(w.matrix));
      EXPECT_TRUE(v.ok) << v.message;
      ++checked;
    }
  }
  EXPECT_EQ(checked + refused, 126 * 2 * 5);
  EXPECT_EQ(sell_checked, 5 * 2 * 3);    // sell on the empty, stencil and far-diagonal matrices
  EXPECT_EQ(sell16_checked, 5 * 2 * 2);  // sell16 on the empty and stencil ones
  EXPECT_EQ(hot_checked, 15 * 2 * 3);    // adaptive_hot on the long row, random and stencil ones
  // Sell and sell16 refused on the long row and the random one, sell16 on the far diagonal;
  // adaptive_hot on the empty matrix and the far diagonal, where no column is used twice.
  EXPECT_EQ(refused, 5 * 2 * 5 + 15 * 2 * 2);
}

// The check has teeth: a kernel that drops the last nonzero of every row fails it.
TEST(SpmvInterp, AWrongKernelFailsTheCheck) {
  const SpmvFamily family;
  const auto& item = spmv_ptx_corpus().front();  // a row-schedule configuration
  ASSERT_EQ(item.entry, "spmv_row");
  const Workload w = workload_of(random_csr(300, 200, 10, 5));
  LaunchPlan plan = family.prepare(w, Problem::of(item.dtype), item.config);
  // Shift row_ptr's view by one element: row r then reads [row_ptr[r+1], row_ptr[r+2]).
  std::vector<int32_t> shifted(w.matrix.row_ptr.begin() + 1, w.matrix.row_ptr.end());
  shifted.push_back(shifted.back());
  std::vector<std::byte> bytes(shifted.size() * 4);
  std::memcpy(bytes.data(), shifted.data(), bytes.size());
  for (DeviceBuffer& b : plan.buffers) {
    if (b.name == "row_ptr") b.bytes = HostBytes(std::move(bytes));
  }
  const std::vector<double> y = compute_outputs(ptx::parse_ptx(item.ptx), plan).at("y");
  const Verdict v =
      verify_output(output_bytes(y, item.dtype), item.dtype, family.reference(w, {}).at("y"), row_lengths(w.matrix));
  EXPECT_FALSE(v.ok);
}

}  // namespace
}  // namespace ktune::interp
