#include "kernels/spmv/spmv_block_weights.h"
#include "model/saake/block_weights.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "kernels/spmv/spmv_adaptive_partition.h"
#include "kernels/spmv/spmv_family.h"
#include "tests/kernels/random_csr.h"
#include "tests/saake/spmv_candidates.h"
#include "workload/generators.h"

namespace ktune {
namespace {

// A matrix with one hub row (row 1234 holds 2000 nonzeros): the block covering it must weigh
// most under the row schedules; merge splits rows + nonzeros evenly; adaptive slices it.
CsrF64 with_hub_row() {
  CsrF64 a = testing_support::random_csr(3000, 3000, 5, 3);
  CsrF64 hub;
  hub.rows = a.rows;
  hub.cols = a.cols;
  hub.row_ptr.push_back(0);
  for (int32_t r = 0; r < a.rows; ++r) {
    if (r == 1234) {
      for (int32_t c = 0; c < 2000; ++c) { hub.col_idx.push_back(c); hub.values.push_back(1.0); }
    } else {
      for (int32_t i = a.row_ptr[r]; i < a.row_ptr[r + 1]; ++i) { hub.col_idx.push_back(a.col_idx[i]); hub.values.push_back(a.values[i]); }
    }
    hub.row_ptr.push_back(static_cast<int32_t>(hub.col_idx.size()));
  }
  return hub;
}

TEST(CsrBlockWeights, BlocksWeighTheWorkTheyCover) {
  const SpmvFamily family;
  Workload w;
  w.matrix = with_hub_row();
  const double path = static_cast<double>(w.matrix.rows + w.matrix.nnz());
  for (const char* key : {"block=256;items_per_thread=1;lanes=1;schedule=row",
                          "block=128;items_per_thread=1;lanes=4;schedule=subwarp",
                          "block=64;items_per_thread=8;lanes=1;schedule=merge",
                          "block=128;items_per_thread=2;lanes=1;schedule=adaptive"}) {
    SCOPED_TRACE(key);
    const LaunchPlan plan = family.prepare(w, Problem::of(Dtype::F32), testing_support::spmv_config(key));
    const LaunchStep& step = plan.steps.back();  // the matrix kernel, after any zeroing of rows
    const std::optional<std::vector<double>> weights = spmv_block_weights(plan, step);
    ASSERT_TRUE(weights.has_value());
    ASSERT_EQ(static_cast<int64_t>(weights->size()), int64_t{step.grid.x});
    double total = 0;
    for (double x : *weights) total += x;
    const bool adaptive = std::string(key).find("adaptive") != std::string::npos;
    const bool merge = std::string(key).find("merge") != std::string::npos;
    // Slices of the hub row each count that row once more.
    if (adaptive) {
      EXPECT_GE(total, path);
    }
    if (merge) {
      EXPECT_DOUBLE_EQ(total, path);
    }
    if (!merge && !adaptive) {
      // The family's O(nnz) estimate counts the same slowest-lane iterations, without the
      // one step per warp's rows added here.
      const std::vector<double> estimated =
          block_weights_for(family.estimate(w, Problem::of(Dtype::F32), testing_support::spmv_config(key)), step);
      const double warps = (step.block.x + 31) / 32;
      for (size_t b = 0; b < weights->size(); ++b) EXPECT_NEAR((*weights)[b], estimated[b], warps) << b;
    }
    const double heaviest = *std::max_element(weights->begin(), weights->end());
    const double lightest_full = *std::min_element(weights->begin(), weights->end() - 1);
    if (merge) {
      EXPECT_DOUBLE_EQ(heaviest, lightest_full);
    } else if (!adaptive) {
      // The hub row's block: its warp loops over 2000 nonzeros, 1 or 4 lanes at a time.
      const double lanes = std::string(key).find("lanes=4") != std::string::npos ? 4 : 1;
      EXPECT_GE(heaviest, 2000 / lanes);
      EXPECT_GT(heaviest, 5 * lightest_full);
    } else {
      // The partition cuts the hub row into slices, each still more than one tile (256).
      EXPECT_LT(heaviest, 2000);
      EXPECT_GT(heaviest, 256);
    }
  }
}

// SELL-32 (on a matrix it takes): the same warps as the row schedule, one step per stored
// column; the family's O(nnz) estimate agrees to within the step per warp added here.
TEST(CsrBlockWeights, SellBlocksWeighTheirSlicesWidths) {
  const SpmvFamily family;
  Workload w;
  w.matrix = generate_stencil_2d(70);
  for (const char* key : {"block=64;items_per_thread=1;lanes=1;schedule=sell",
                          "block=512;items_per_thread=1;lanes=1;schedule=sell"}) {
    SCOPED_TRACE(key);
    const LaunchPlan plan = family.prepare(w, Problem::of(Dtype::F64), testing_support::spmv_config(key));
    const LaunchStep& step = plan.steps.at(0);
    const std::optional<std::vector<double>> weights = spmv_block_weights(plan, step);
    ASSERT_TRUE(weights.has_value());
    ASSERT_EQ(static_cast<int64_t>(weights->size()), int64_t{step.grid.x});
    const std::vector<double> estimated =
        block_weights_for(family.estimate(w, Problem::of(Dtype::F64), testing_support::spmv_config(key)), step);
    const double warps = (step.block.x + 31) / 32;
    for (size_t b = 0; b < weights->size(); ++b) {
      EXPECT_NEAR((*weights)[b], estimated[b], warps) << b;
      EXPECT_GT((*weights)[b], estimated[b]) << b;  // the step per warp is there
    }
  }
}

// An adaptive tile's span is its longest thread: the tile's loads, then one thread per row
// reducing serially when the rows outnumber half the block. One row of 150 among rows of one
// makes its tile run ~150 steps; tiles of short rows run a few; a slice of the hub row (2000
// nonzeros, cut since it exceeds four tiles) is strided over by all 128 threads.
TEST(CsrBlockWeights, AdaptiveSpansFollowEachTilesLongestRow) {
  CsrF64 a;
  a.rows = a.cols = 3000;
  a.row_ptr.push_back(0);
  for (int32_t r = 0; r < a.rows; ++r) {
    const int32_t length = r == 100 ? 150 : r == 2000 ? 2000 : 1;
    for (int32_t c = 0; c < length; ++c) { a.col_idx.push_back((r + c) % a.cols); a.values.push_back(1.0); }
    a.row_ptr.push_back(static_cast<int32_t>(a.col_idx.size()));
  }
  const SpmvFamily family;
  Workload w;
  w.matrix = a;
  const LaunchPlan plan = family.prepare(w, Problem::of(Dtype::F32), testing_support::spmv_config("block=128;items_per_thread=2;lanes=1;schedule=adaptive"));
  const LaunchStep& step = plan.steps.back();
  const std::optional<std::vector<double>> spans = spmv_block_spans(plan, step);
  ASSERT_TRUE(spans.has_value());
  const AdaptivePartition partition = adaptive_partition(a, 256);
  ASSERT_EQ(static_cast<int64_t>(spans->size()), partition.blocks());
  int slices = 0;
  for (int64_t b = 0; b < partition.blocks(); ++b) {
    const RowBlock rb = partition.block(b);
    const double span = (*spans)[static_cast<size_t>(b)];
    if (rb.slice) {
      ++slices;
      EXPECT_DOUBLE_EQ(span, std::ceil((rb.end_nz - rb.first_nz) / 128.0)) << b;
    } else if (rb.first_row <= 100 && 100 < rb.end_row) {
      EXPECT_GE(span, 151) << b;  // one thread adds the 150 products
      EXPECT_LE(span, 160) << b;
    } else {
      EXPECT_LE(span, 8) << b;
    }
  }
  EXPECT_GT(slices, 1);
  // Launches that are not row blocks have no spans: their weight is their longest thread.
  const LaunchPlan subwarp = family.prepare(w, Problem::of(Dtype::F32), testing_support::spmv_config("block=128;items_per_thread=1;lanes=4;schedule=subwarp"));
  EXPECT_FALSE(spmv_block_spans(subwarp, subwarp.steps.back()).has_value());
}

TEST(CsrBlockWeights, AStepWithoutRowPointersIsNotCsr) {
  LaunchPlan plan;
  LaunchStep step;
  step.grid.x = 4;
  step.args.push_back(KernelArg::of_buffer("values"));
  EXPECT_FALSE(spmv_block_weights(plan, step).has_value());
  EXPECT_FALSE(spmv_block_spans(plan, step).has_value());
}

}  // namespace
}  // namespace ktune
