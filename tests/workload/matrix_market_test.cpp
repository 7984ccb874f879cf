#include "workload/matrix_market.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "workload/gzip.h"
#include "workload/input_error.h"
#include "workload/line_chunks.h"

namespace ktune {
namespace {

using Dense = std::map<std::pair<int, int>, double>;

// What a CSR matrix holds, written out entry by entry.
Dense to_entries(const CsrF64& m) {
  Dense out;
  for (int r = 0; r < m.rows; ++r) {
    EXPECT_TRUE(
        std::is_sorted(m.col_idx.begin() + m.row_ptr[r], m.col_idx.begin() + m.row_ptr[r + 1]));
    for (int k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) {
      EXPECT_EQ(out.count({r, m.col_idx[k]}), 0u) << "duplicate column in row " << r;
      out[{r, m.col_idx[k]}] = m.values[k];
    }
  }
  return out;
}

struct Triplet {
  int row, col;  // 1-based, as in the file
  double value;
};

// The matrix a file stands for, expanded without the parser's code: sums repeated
// entries, mirrors off-diagonals for symmetric (negated for skew-symmetric).
Dense expand(const std::vector<Triplet>& triplets, const std::string& symmetry) {
  Dense out;
  for (const auto& t : triplets) {
    out[{t.row - 1, t.col - 1}] += t.value;
    if (symmetry != "general" && t.row != t.col) {
      out[{t.col - 1, t.row - 1}] += symmetry == "skew-symmetric" ? -t.value : t.value;
    }
  }
  return out;
}

std::string file_text(const std::string& banner_rest, int rows, int cols,
                      const std::vector<Triplet>& triplets, bool with_values = true) {
  std::ostringstream text;
  text << "%%MatrixMarket matrix coordinate " << banner_rest << "\n% a comment\n"
       << rows << " " << cols << " " << triplets.size() << "\n";
  for (const auto& t : triplets) {
    text << t.row << " " << t.col;
    if (with_values) text << " " << t.value;
    text << "\n";
  }
  return text.str();
}

std::string error_of(const std::string& text, const ReadLimits& limits = {}) {
  try {
    parse_matrix_market(text, limits);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

void expect_error(const std::string& text, const std::string& line, const std::string& problem) {
  const std::string message = error_of(text);
  EXPECT_EQ(message.rfind(line + ": ", 0), 0u) << message;
  EXPECT_NE(message.find(problem), std::string::npos) << message;
}

const char* kHeader = "%%MatrixMarket matrix coordinate real general\n";

TEST(MatrixMarket, RealGeneralWithDuplicatesSummedAndRowsSorted) {
  const std::vector<Triplet> t = {
      {2, 3, 1.5}, {1, 1, 2.0}, {2, 1, -1.0}, {2, 3, 0.25}, {3, 2, 4.0}};
  const CsrF64 m = parse_matrix_market(file_text("real general", 3, 4, t), {});
  EXPECT_EQ(m.rows, 3);
  EXPECT_EQ(m.cols, 4);
  EXPECT_EQ(m.nnz(), 4);
  EXPECT_EQ(to_entries(m), expand(t, "general"));
}

TEST(MatrixMarket, IntegerField) {
  const std::vector<Triplet> t = {{1, 2, 7}, {2, 1, -3}};
  EXPECT_EQ(to_entries(parse_matrix_market(file_text("integer general", 2, 2, t), {})),
            expand(t, "general"));
}

TEST(MatrixMarket, PatternFieldGivesOnes) {
  const std::vector<Triplet> t = {{1, 2, 1.0}, {3, 1, 1.0}};
  EXPECT_EQ(to_entries(parse_matrix_market(file_text("pattern general", 3, 3, t, false), {})),
            expand(t, "general"));
}

TEST(MatrixMarket, SymmetricMirrorsOffDiagonals) {
  const std::vector<Triplet> t = {{1, 1, 4.0}, {2, 1, -1.0}, {3, 2, 2.5}, {3, 3, 1.0}, {4, 1, 0.5}};
  const CsrF64 m = parse_matrix_market(file_text("real symmetric", 4, 4, t), {});
  EXPECT_EQ(m.nnz(), 8);
  EXPECT_EQ(to_entries(m), expand(t, "symmetric"));
}

TEST(MatrixMarket, SkewSymmetricMirrorsNegated) {
  const std::vector<Triplet> t = {{2, 1, 3.0}, {3, 1, -2.0}, {3, 2, 0.5}};
  const CsrF64 m = parse_matrix_market(file_text("real skew-symmetric", 3, 3, t), {});
  EXPECT_EQ(to_entries(m), expand(t, "skew-symmetric"));
}

TEST(MatrixMarket, SymmetricPatternAndIntegerCombine) {
  const std::vector<Triplet> t = {{2, 1, 1.0}, {2, 2, 1.0}};
  EXPECT_EQ(to_entries(parse_matrix_market(file_text("pattern symmetric", 2, 2, t, false), {})),
            expand(t, "symmetric"));
  const std::vector<Triplet> u = {{2, 1, 5}, {1, 1, -2}};
  EXPECT_EQ(to_entries(parse_matrix_market(file_text("integer symmetric", 2, 2, u), {})),
            expand(u, "symmetric"));
}

TEST(MatrixMarket, BannerIsCaseInsensitiveAndLayoutIsForgiving) {
  const std::string text =
      "%%MatrixMarket MATRIX Coordinate Real General\r\n%c\r\n\r\n  2 2 2 \r\n 1\t1  "
      "+1.5e0\r\n\r\n% late "
      "comment\r\n2 2 -.5";
  const CsrF64 m = parse_matrix_market(text, {});
  EXPECT_EQ(to_entries(m), (Dense{{{0, 0}, 1.5}, {{1, 1}, -0.5}}));
}

TEST(MatrixMarket, EmptyMatrix) {
  const CsrF64 m = parse_matrix_market(std::string(kHeader) + "3 2 0\n", {});
  EXPECT_EQ(m.rows, 3);
  EXPECT_EQ(m.cols, 2);
  EXPECT_EQ(m.nnz(), 0);
  EXPECT_EQ(m.row_ptr, (std::vector<int32_t>{0, 0, 0, 0}));
}

// Large enough (over 1 MB per core) for the entry lines to be split over threads: the result must
// not depend on where the cut falls.
TEST(MatrixMarket, LargeRandomFileMatchesIndependentExpansion) {
  std::mt19937 rng(42);
  std::vector<Triplet> t;
  for (int k = 0; k < 200000; ++k) {
    int r = 1 + static_cast<int>(rng() % 300), c = 1 + static_cast<int>(rng() % 300);
    if (c > r) std::swap(r, c);
    t.push_back({r, c, static_cast<double>(rng() % 1000) / 8.0});
  }
  const std::string text = file_text("real symmetric", 300, 300, t);
  ASSERT_GT(text.size(), size_t{2} << 20);
  EXPECT_EQ(to_entries(parse_matrix_market(text, {})), expand(t, "symmetric"));
}

TEST(MatrixMarket, WriteThenParseIsExact) {
  std::mt19937_64 rng(7);
  std::vector<Triplet> t;
  for (int k = 0; k < 2000; ++k) {
    const double v = std::ldexp(static_cast<double>(rng() >> 11), -40) * (k % 2 ? -1 : 1);
    t.push_back({1 + static_cast<int>(rng() % 50), 1 + static_cast<int>(rng() % 70), v});
  }
  std::vector<Triplet> unique;  // one entry per position, so no sums blur the values
  Dense seen;
  for (const auto& e : t) {
    if (seen.emplace(std::make_pair(e.row, e.col), e.value).second) unique.push_back(e);
  }
  std::ostringstream exact;
  exact.precision(17);
  for (const auto& e : unique) exact << e.row << " " << e.col << " " << e.value << "\n";
  const std::string text =
      std::string(kHeader) + "50 70 " + std::to_string(unique.size()) + "\n" + exact.str();
  const CsrF64 original = parse_matrix_market(text, {});
  std::ostringstream written;
  write_matrix_market(original, written);
  const CsrF64 again = parse_matrix_market(written.str(), {});
  EXPECT_EQ(again.rows, original.rows);
  EXPECT_EQ(again.cols, original.cols);
  EXPECT_EQ(again.row_ptr, original.row_ptr);
  EXPECT_EQ(again.col_idx, original.col_idx);
  EXPECT_EQ(again.values, original.values);  // bit for bit
}

TEST(MatrixMarket, ReadsPlainAndGzipFilesByMagic) {
  const std::vector<Triplet> t = {{1, 2, 3.0}, {2, 2, 1.0}};
  const std::string text = file_text("real general", 2, 2, t);
  const auto dir = std::filesystem::temp_directory_path();
  const auto plain = dir / "ktune_mm_test_plain.mtx";
  const auto packed = dir / "ktune_mm_test_packed.mtx";  // gzip without the .gz name
  std::ofstream(plain, std::ios::binary) << text;
  std::ofstream(packed, std::ios::binary) << gzip_compress(text);
  EXPECT_EQ(to_entries(read_matrix_market_file(plain.string(), {})), expand(t, "general"));
  EXPECT_EQ(to_entries(read_matrix_market_file(packed.string(), {})), expand(t, "general"));
  std::ofstream(plain, std::ios::binary) << std::string(kHeader) + "2 2 1\n1 x 1\n";
  try {
    read_matrix_market_file(plain.string(), {});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(plain.filename().string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("line 3"), std::string::npos) << e.what();
  }
  std::filesystem::remove(plain);
  std::filesystem::remove(packed);
}

TEST(MatrixMarketErrors, Banner) {
  expect_error("", "line 1", "empty");
  expect_error("5 5 1\n1 1 1\n", "line 1", "banner");
  expect_error("%%MatrixMarket matrix coordinate real\n1 1 0\n", "line 1", "words");
  expect_error("%%MatrixMarket vector coordinate real general\n", "line 1", "'vector'");
  expect_error("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", "line 1",
               "coordinate");
  expect_error("%%MatrixMarket matrix coordinate complex general\n", "line 1", "complex");
  expect_error("%%MatrixMarket matrix coordinate real hermitian\n", "line 1", "hermitian");
  expect_error("%%MatrixMarket matrix coordinate real upper\n", "line 1", "symmetry 'upper'");
  expect_error("%%MatrixMarket matrix coordinate fuzzy general\n", "line 1", "field 'fuzzy'");
}

TEST(MatrixMarketErrors, SizeLine) {
  expect_error(std::string(kHeader) + "% only comments\n", "line 3", "missing size line");
  expect_error(std::string(kHeader) + "-5 5 1\n", "line 2", "row count -5 is negative");
  expect_error(std::string(kHeader) + "5 5\n", "line 2", "3 numbers");
  expect_error(std::string(kHeader) + "\n  \n5 5 1 \n", "line 5", "ends after 0 of the 1 entries");
  expect_error(std::string(kHeader) + "5 five 1\n", "line 2",
               "column count 'five' is not an integer");
  expect_error(std::string(kHeader) + "5 5 1 9\n", "line 2", "unexpected '9'");
  expect_error(std::string(kHeader) + "99999999999999999999999 5 1\n", "line 2", "not an integer");
  expect_error("%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n", "line 2", "square");
}

TEST(MatrixMarketErrors, SizesBeyondLimitsAreLimitErrors) {
  ReadLimits small;
  small.max_rows = 100;
  small.max_cols = 100;
  small.max_entries = 10;
  EXPECT_THROW(parse_matrix_market(std::string(kHeader) + "101 5 1\n1 1 1\n", small), LimitError);
  EXPECT_THROW(parse_matrix_market(std::string(kHeader) + "5 101 1\n1 1 1\n", small), LimitError);
  EXPECT_THROW(parse_matrix_market(std::string(kHeader) + "5 5 11\n", small), LimitError);
  const std::string message = error_of(std::string(kHeader) + "%\n3000000000 5 1\n");
  EXPECT_EQ(message.rfind("line 3: ", 0), 0u) << message;
}

// The header, then one line repeated without end; counts the bytes a reader took.
class EndlessText : public TextSource {
 public:
  EndlessText(std::string head, std::string line) : head_(std::move(head)), line_(std::move(line)) {}
  size_t read(char* out, size_t capacity) override {
    for (size_t i = 0; i < capacity; ++i, ++pos_)
      out[i] = pos_ < head_.size() ? head_[pos_] : line_[(pos_ - head_.size()) % line_.size()];
    return capacity;
  }
  uint64_t bytes_read() const { return pos_; }

 private:
  std::string head_, line_;
  uint64_t pos_ = 0;
};

TEST(MatrixMarketErrors, EndlessCommentsStopAtTheSlack) {
  EndlessText before_size(std::string(kHeader), "% a comment that never ends\n");
  EXPECT_THROW(parse_matrix_market(before_size, {}), LimitError);
  EXPECT_LE(before_size.bytes_read(), LineChunks::kChunkBytes);
}

TEST(MatrixMarketErrors, TextBeyondWhatTheEntriesNeedIsRefusedAtTheFirstPieceTooMany) {
  EndlessText after_entries(std::string(kHeader) + "3 3 1\n1 1 1.0\n", "%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%\n");
  try {
    parse_matrix_market(after_entries, {});
    FAIL();
  } catch (const LimitError& e) {
    EXPECT_NE(std::string(e.what()).find("more than 1 entries need"), std::string::npos) << e.what();
  }
  // Stopped at the first piece past 1 MB of slack, not after reading gigabytes.
  EXPECT_LE(after_entries.bytes_read(), ReadLimits{}.text_slack_bytes + 2 * LineChunks::kChunkBytes);
}

TEST(MatrixMarketErrors, AGzipBombIsRefusedAfterItsFirstPiece) {
  const std::string member = gzip_compress(std::string(kHeader) + "2 2 1\n1 1 1\n" + std::string(16 << 20, '\n'), 9);
  std::string zeros = gzip_compress(std::string(16 << 20, '\n'), 9);
  std::string bomb = member;
  for (int i = 0; i < 256; ++i) bomb += zeros;  // 4 GB of blank lines
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(parse_matrix_market(std::string_view(bomb), {}), LimitError);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(MatrixMarketErrors, DimensionsMustBeEarnedByEntries) {
  ReadLimits wide;
  wide.max_rows = wide.max_cols = int64_t{1} << 30;
  // 76 bytes declaring 2^28 x 2^28 with one entry: refused at the size line.
  const std::string tiny = std::string(kHeader) + "268435456 268435456 1\n1 1 1\n";
  const std::string message = error_of(tiny, wide);
  EXPECT_NE(message.find("at most 1048592 rows and columns"), std::string::npos) << message;
  EXPECT_THROW(parse_matrix_market(tiny, {}), LimitError);  // beyond --max-rows as well
  // Up to the free dimension, one entry is enough.
  EXPECT_EQ(parse_matrix_market(std::string(kHeader) + "1048576 1048576 1\n1 1 1\n", {}).rows, 1048576);
}

TEST(MatrixMarketErrors, AbsurdDeclaredSizesFailAtOnce) {
  ReadLimits generous;
  generous.max_rows = generous.max_cols = int64_t{1} << 31;
  generous.max_entries = int64_t{1} << 50;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(
      parse_matrix_market(std::string(kHeader) + "1000000 1000000 1000000000000\n1 1 1\n", {}),
      LimitError);
  EXPECT_THROW(parse_matrix_market(std::string(kHeader) + "1000000 1000000 1000000000000\n1 1 1\n",
                                   generous),
               LimitError);
  // Within the limits but with a body that cannot hold what it declares: the reader must
  // find out without first allocating room for 300 M entries.
  EXPECT_THROW(parse_matrix_market(std::string(kHeader) + "100000 100000 300000000\n1 1 1\n", {}),
               InputError);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(200));
}

TEST(MatrixMarketErrors, EntryLinesNameLineAndProblem) {
  const std::string h =
      std::string(kHeader) + "% c\n% c\n% c\n5 5 2\n1 1 1\n";  // entries from line 6
  expect_error(h + "2 0 1.0\n", "line 7", "column index 0 out of range 1..5");
  expect_error(h + "6 1 1.0\n", "line 7", "row index 6 out of range 1..5");
  expect_error(h + "x 1 1.0\n", "line 7", "row index 'x' is not an integer");
  expect_error(h + "1 1.5 1.0\n", "line 7", "column index '1.5' is not an integer");
  expect_error(h + "1 2 abc\n", "line 7", "value 'abc' is not a finite real number");
  expect_error(h + "1 2 nan\n", "line 7", "finite");
  expect_error(h + "1 2 1e999\n", "line 7", "finite");
  expect_error(h + "1 2\n", "line 7", "missing value");
  expect_error(h + "1\n", "line 7", "missing column index");
  expect_error(h + "1 2 3 4\n", "line 7", "unexpected '4'");
  expect_error(h + "1 2 3\n4 4 4\n", "line 8", "more entries than the 2");
  expect_error(h, "line 7", "ends after 1 of the 2 entries");
  expect_error(h + "\n\n", "line 9", "ends after 1 of the 2 entries");
  expect_error("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 2.5\n", "line 3",
               "not an integer");
  expect_error("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 2.5\n", "line 3",
               "unexpected '2.5'");
  expect_error("%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1\n2 2 1\n",
               "line 4", "diagonal entry (2, 2)");
}

// Errors found by the second thread still carry the right line number.
TEST(MatrixMarketErrors, LineNumbersHoldInLargeFiles) {
  std::string text = std::string(kHeader) + "1000 1000 200000\n";
  for (int k = 0; k < 200000; ++k) {
    text += std::to_string(1 + k % 1000) + " " + std::to_string(1 + k / 1000) + " 1.25\n";
  }
  std::string bad = text;
  ASSERT_GT(text.size(), size_t{2} << 20);
  const size_t line_199999 = bad.rfind("\n", bad.rfind("\n", bad.size() - 2) - 1) + 1;
  bad.replace(line_199999, 1, "#");
  EXPECT_EQ(error_of(bad).rfind("line 200001: row index", 0), 0u) << error_of(bad);
  EXPECT_EQ(error_of(text + "1 1 1\n").rfind("line 200003: more entries", 0), 0u)
      << error_of(text + "1 1 1\n");
  std::string fewer = text;
  fewer.replace(fewer.find("200000\n"), 6, "200001");
  EXPECT_EQ(error_of(fewer).rfind("line 200003: the input ends after 200000", 0), 0u)
      << error_of(fewer);
}

}  // namespace
}  // namespace ktune
