// A CPU mirror of spmv_adaptive.cu run on what prepare() uploads: block by block and thread by
// thread, with the kernel's own index arithmetic, so that a partition or indexing mistake shows
// here rather than as a wrong answer on the GPU. Only the arithmetic order of the sums differs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "kernels/spmv/spmv_config.h"
#include "kernels/spmv/spmv_family.h"
#include "random_csr.h"
#include "workload/generators.h"

namespace ktune {
namespace {

using testing_support::csr_with_row_lengths;
using testing_support::random_csr;

template <typename T>
std::vector<T> contents(const LaunchPlan& plan, const std::string& name) {
  for (const DeviceBuffer& b : plan.buffers) {
    if (b.name != name) continue;
    std::vector<T> out(b.bytes.size() / sizeof(T));
    std::memcpy(out.data(), b.bytes.data(), b.bytes.size());
    return out;
  }
  ADD_FAILURE() << "no buffer " << name;
  return {};
}

// What the kernel leaves in y, and how each row was written.
struct MirrorResult {
  std::vector<double> y;
  std::vector<int> stores;  // plain stores per row: a second one would be a race
  std::vector<int> adds;    // atomicAdds per row
};

struct KernelInputs {
  int block = 0;
  int items = 0;
  std::vector<int32_t> row_blocks, row_ptr, col_idx;
  std::vector<double> values, x;
};

int boundary_row(int stored) { return stored < 0 ? ~stored : stored; }

int kernel_row_width(int rows, int block) {
  if (rows >= block) return 1;
  int quotient = block / std::max(rows, 1);
  int power = 1;
  while (power * 2 <= quotient) power *= 2;  // 1 << (31 - __clz(quotient))
  return std::min(32, power);
}

void mirror_block(const KernelInputs& in, unsigned block_index, MirrorResult& out) {
  const int block = in.block;
  const int tile = in.block * in.items;
  const int from_x = in.row_blocks.at(2 * block_index);
  const int from_y = in.row_blocks.at(2 * block_index + 1);
  const int to_x = in.row_blocks.at(2 * block_index + 2);
  const int to_y = in.row_blocks.at(2 * block_index + 3);
  const bool slice = from_x < 0;
  const int first_row = boundary_row(from_x);
  const int rows = boundary_row(to_x) - first_row;
  const int first_nz = from_y;
  const auto product = [&](int nz) {
    EXPECT_TRUE(nz >= 0 && nz < static_cast<int>(in.col_idx.size())) << "nonzero " << nz;
    return in.values.at(nz) * in.x.at(in.col_idx.at(nz));
  };

  if (slice || rows == 1) {
    double sum = 0;  // block_row_sum: every thread's strided share, then the block's total
    for (int t = 0; t < block; ++t) {
      for (int i = first_nz + t; i < to_y; i += block) sum += product(i);
    }
    const size_t row = static_cast<size_t>(first_row);
    ASSERT_LT(row, out.y.size()) << "block " << block_index;
    if (slice) {
      out.y[row] += sum;
      ++out.adds[row];
    } else {
      out.y[row] = sum;
      ++out.stores[row];
    }
    return;
  }

  const int tile_nnz = to_y - first_nz;
  ASSERT_LE(tile_nnz, tile) << "block " << block_index << " overflows its tile";
  std::vector<double> products(static_cast<size_t>(tile), std::nan(""));
  for (int k = 0; k < in.items && tile_nnz > 0; ++k) {
    for (int t = 0; t < block; ++t) {
      const int i = t + k * block;
      const double p = product(first_nz + std::min(i, tile_nnz - 1));  // clamped, as loaded
      products[static_cast<size_t>(i)] = i < tile_nnz ? p : 0;
    }
  }
  const int width = kernel_row_width(rows, block);
  const int rows_per_pass = block / width;
  for (int pass = 0; pass < rows; pass += rows_per_pass) {
    std::vector<double> group_sum(static_cast<size_t>(rows_per_pass), 0.0);
    for (int t = 0; t < block; ++t) {
      const int row = pass + t / width;
      if (row >= rows) continue;
      const int lane = t % width;
      const int begin = in.row_ptr.at(first_row + row) - first_nz;
      const int end = in.row_ptr.at(first_row + row + 1) - first_nz;
      for (int i = begin + lane; i < end; i += width) {
        ASSERT_TRUE(i >= 0 && i < tile_nnz) << "block " << block_index << " reads " << i;
        group_sum[static_cast<size_t>(t / width)] += products[static_cast<size_t>(i)];
      }
    }
    for (int g = 0; g < rows_per_pass && pass + g < rows; ++g) {
      const size_t row = static_cast<size_t>(first_row + pass + g);
      out.y.at(row) = group_sum[static_cast<size_t>(g)];
      ++out.stores[row];
    }
  }
}

// Runs the mirror on the f64 plan of `config` and checks it against the family's reference.
void expect_mirror_matches_reference(const CsrF64& a, const Config& config) {
  const SpmvFamily family;
  Workload w;
  w.matrix = a;
  const LaunchPlan plan = family.prepare(w, Problem::of(Dtype::F64), config);
  const SpmvConfig c = SpmvConfig::from(config);
  ASSERT_LE(plan.steps.size(), 2u);  // the adaptive kernel, after zeroing the sliced rows if any
  const LaunchStep& step = plan.steps.back();
  ASSERT_EQ(step.entry, "spmv_adaptive");
  ASSERT_EQ(step.block.x, static_cast<uint32_t>(c.block));
  KernelInputs in{c.block,
                  c.items_per_thread,
                  contents<int32_t>(plan, "row_blocks"),
                  contents<int32_t>(plan, "row_ptr"),
                  contents<int32_t>(plan, "col_idx"),
                  contents<double>(plan, "values"),
                  contents<double>(plan, "x")};
  ASSERT_EQ(in.row_blocks.size(), 2 * (size_t{step.grid.x} + 1));

  const size_t rows = static_cast<size_t>(a.rows);
  // The harness poisons y; the plan's first launch zeroes the rows it adds into, if any.
  MirrorResult out{std::vector<double>(rows, std::numeric_limits<double>::quiet_NaN()),
                   std::vector<int>(rows, 0), std::vector<int>(rows, 0)};
  std::set<int32_t> zeroed;
  if (plan.steps.front().entry == "spmv_zero_rows")
    for (int32_t r : contents<int32_t>(plan, "atomic_rows")) zeroed.insert(r);
  for (int32_t r : zeroed) out.y[static_cast<size_t>(r)] = 0;
  for (unsigned b = 0; b < step.grid.x; ++b) mirror_block(in, b, out);

  const std::vector<double> want = family.reference(w, {}).at("y");
  const std::string what = spmv_space().canonical(config);
  for (size_t r = 0; r < rows; ++r) {
    const bool stored_once = out.stores[r] == 1 && out.adds[r] == 0;
    const bool added_only = out.stores[r] == 0 && out.adds[r] >= 2;
    ASSERT_TRUE(stored_once || added_only)
        << what << " row " << r << ": " << out.stores[r] << " stores, " << out.adds[r] << " adds";
    if (added_only) {
      ASSERT_TRUE(zeroed.count(static_cast<int32_t>(r))) << what << " row " << r;
    }
    ASSERT_NEAR(out.y[r], want[r], 1e-9 * (1 + std::abs(want[r]))) << what << " row " << r;
  }
}

std::vector<Config> adaptive_configs() {
  std::vector<Config> configs;
  for (const Config& c : spmv_space().enumerate()) {
    if (SpmvConfig::from(c).schedule == SpmvSchedule::Adaptive) configs.push_back(c);
  }
  return configs;
}

TEST(SpmvAdaptiveMirror, EveryConfigurationOnShortAndEmptyRows) {
  const CsrF64 a = random_csr(5000, 3000, 12, 1);
  for (const Config& c : adaptive_configs()) expect_mirror_matches_reference(a, c);
}

TEST(SpmvAdaptiveMirror, EveryConfigurationOnLongAndSplitRows) {
  // Row lengths around a tile and the split length of every tile size, among short rows.
  std::vector<int32_t> lengths;
  for (int32_t length : {1, 127, 128, 129, 512, 513, 1024, 2049, 4096, 4097, 8192, 16385, 20000}) {
    lengths.insert(lengths.end(), {3, 0, length, 5});
  }
  const CsrF64 a = csr_with_row_lengths(lengths, 20000);
  for (const Config& c : adaptive_configs()) expect_mirror_matches_reference(a, c);
}

TEST(SpmvAdaptiveMirror, PowerLawAndStencilMatrices) {
  const CsrF64 rmat = generate_rmat(12, 16, 5);
  const CsrF64 stencil = generate_stencil_2d(60);
  for (const Config& c : adaptive_configs()) {
    expect_mirror_matches_reference(rmat, c);
    expect_mirror_matches_reference(stencil, c);
  }
}

TEST(SpmvAdaptiveMirror, ManyEmptyRowsAndTheEmptyMatrix) {
  std::vector<int32_t> lengths(3000, 0);
  lengths[1500] = 7;
  for (const Config& c : adaptive_configs()) {
    expect_mirror_matches_reference(csr_with_row_lengths(lengths, 10), c);
    expect_mirror_matches_reference(random_csr(0, 4, 0, 2), c);
  }
}

}  // namespace
}  // namespace ktune
