// The real matrices shipped beside the project parse to the sizes their README gives.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "workload/matrix_market.h"

namespace ktune {
namespace {

struct RealMatrix {
  std::string file;
  int32_t rows;
  int64_t entries;  // after mirroring
};

std::string matrix_path(const std::string& file) {
  return std::string(KTUNE_SOURCE_DIR) + "/data/matrices/" + file;
}

class RealMatrices : public ::testing::TestWithParam<RealMatrix> {};

TEST_P(RealMatrices, ParseToTheirDocumentedSize) {
  const RealMatrix& expected = GetParam();
  const CsrF64 m = read_matrix_market_file(matrix_path(expected.file), {});
  EXPECT_EQ(m.rows, expected.rows);
  EXPECT_EQ(m.cols, expected.rows);
  EXPECT_EQ(m.nnz(), expected.entries);
  EXPECT_EQ(m.row_ptr.back(), m.nnz());
  EXPECT_EQ(m.values.size(), m.col_idx.size());
}

INSTANTIATE_TEST_SUITE_P(Readme, RealMatrices,
                         ::testing::Values(RealMatrix{"mdual.mtx.gz", 258569, 1026264},
                                           RealMatrix{"szdMat.mtx.gz", 12675, 239873},
                                           RealMatrix{"modified.mtx.gz", 15444, 371554},
                                           RealMatrix{"hammond.mtx.gz", 4720, 32164},
                                           RealMatrix{"gemat12.mtx.gz", 4929, 33111},
                                           RealMatrix{"wathenSmall.mtx.gz", 7400, 113632}),
                         [](const auto& info) {
                           return info.param.file.substr(0, info.param.file.find('.'));
                         });

// mdual stores one triangle of a symmetric pattern: after mirroring, every (i, j) has its (j, i).
TEST(RealMatrices, MdualIsSymmetricAfterMirroring) {
  const CsrF64 m = read_matrix_market_file(matrix_path("mdual.mtx.gz"), {});
  for (int32_t r = 0; r < m.rows; ++r) {
    for (int32_t k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) {
      const int32_t c = m.col_idx[k];
      const auto begin = m.col_idx.begin() + m.row_ptr[c],
                 end = m.col_idx.begin() + m.row_ptr[c + 1];
      ASSERT_TRUE(std::binary_search(begin, end, r)) << "(" << r << ", " << c << ") has no mirror";
    }
  }
  EXPECT_TRUE(std::all_of(m.values.begin(), m.values.end(), [](double v) { return v == 1.0; }));
}

}  // namespace
}  // namespace ktune
