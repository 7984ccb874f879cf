#include "workload/text_scan.h"

#include <gtest/gtest.h>

#include "workload/input_error.h"

namespace ktune {
namespace {

bool integer(const std::string& token, int64_t& out) {
  return parse_integer(token.data(), token.data() + token.size(), out);
}

bool real(const std::string& token, double& out) {
  return parse_real(token.data(), token.data() + token.size(), out);
}

TEST(TextScan, IntegersAreWholeTokens) {
  int64_t v = 0;
  EXPECT_TRUE(integer("42", v));
  EXPECT_EQ(v, 42);
  EXPECT_TRUE(integer("+7", v));
  EXPECT_EQ(v, 7);
  EXPECT_TRUE(integer("-3", v));
  EXPECT_EQ(v, -3);
  for (const char* bad : {"", "+", "+-3", "4x", "1.0", "99999999999999999999", " 1"}) {
    EXPECT_FALSE(integer(bad, v)) << bad;
  }
}

TEST(TextScan, RealsAreFiniteWholeTokens) {
  double v = 0;
  EXPECT_TRUE(real("-2.5e-3", v));
  EXPECT_EQ(v, -2.5e-3);
  EXPECT_TRUE(real("+.5", v));
  EXPECT_EQ(v, 0.5);
  for (const char* bad : {"", "nan", "inf", "-inf", "1e400", "1.5.2", "0x"})
    EXPECT_FALSE(real(bad, v)) << bad;
}

TEST(TextScan, LineNumbersFromOffsets) {
  const std::string text = "a\nbb\n\nccc";
  EXPECT_EQ(line_number_at(text, 0), 1);
  EXPECT_EQ(line_number_at(text, 2), 2);
  EXPECT_EQ(line_number_at(text, 5), 3);
  EXPECT_EQ(line_number_at(text, 6), 4);
  EXPECT_EQ(line_number_at(text, 100), 4);
  try {
    throw_at_line(text, 6, "bad token", true);
    FAIL();
  } catch (const LimitError& e) {
    EXPECT_STREQ(e.what(), "line 4: bad token");
  }
}

TEST(TextScan, QuotedTokensAreCutShort) {
  const std::string longer(100, 'x');
  EXPECT_EQ(quoted(longer.data(), longer.data() + 3), "'xxx'");
  EXPECT_EQ(quoted(longer.data(), longer.data() + 100), "'" + std::string(40, 'x') + "...'");
}

// One entry per non-comment line; the cap and the failures report the earliest line.
ScannedRange scan_digits(std::string_view text, size_t begin, size_t end) {
  ScannedRange range;
  for (const char* p = text.data() + begin; p < text.data() + end;
       p = next_line_start(p, text.data() + end)) {
    if (*p == '#' || *p == '\n') continue;
    if (*p == 'x') {
      record_failure(range, text, p, "an x");
      break;
    }
    range.entries.add(*p - '0', 0, 1.0);
  }
  return range;
}

TEST(TextScan, ScanEntryLinesKeepsOrderAndReportsTheFirstProblem) {
  std::string text;
  for (int i = 0; i < 600000; ++i) text += i % 3 ? std::to_string(i % 10) + "\n" : "# comment\n";
  ASSERT_GT(text.size(), size_t{2} << 20);  // more than one range on two cores
  const EntryCap no_cap{1 << 30, "too many", false};
  const auto scan = [&](size_t b, size_t e) { return scan_digits(text, b, e); };
  const std::vector<CooPart> parts = scan_entry_lines(text, 0, 1, "#", no_cap, scan);
  std::vector<int32_t> rows;
  for (const auto& p : parts) rows.insert(rows.end(), p.row.begin(), p.row.end());
  ASSERT_EQ(rows.size(), 400000u);
  for (size_t k = 0, line = 0; k < rows.size(); ++line) {
    if (line % 3) {
      EXPECT_EQ(rows[k++], static_cast<int32_t>(line % 10)) << line;
    }
  }
  try {
    scan_entry_lines(text, 0, 1, "#", EntryCap{1000, "too many", true}, scan);
    FAIL();
  } catch (const LimitError& e) {
    EXPECT_STREQ(e.what(), "line 1502: too many");  // the 1001st entry: lines 2, 3, 5, 6, ...
  }
  // Two bad lines, one in each half: the first one is reported.
  std::string bad = text;
  size_t middle = bad.find('\n', bad.size() / 2) + 1;
  if (bad[middle] == '#') middle = bad.find('\n', middle) + 1;
  bad[middle] = 'x';
  bad[bad.size() - 2] = 'x';
  const auto scan_bad = [&](size_t b, size_t e) { return scan_digits(bad, b, e); };
  try {
    scan_entry_lines(bad, 0, 1, "#", no_cap, scan_bad);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.what(), "line " + std::to_string(line_number_at(bad, middle)) + ": an x");
  }
  // A piece of a longer text names lines as the whole text numbers them.
  try {
    scan_entry_lines(bad, 0, 1001, "#", no_cap, scan_bad);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.what(), "line " + std::to_string(line_number_at(bad, middle) + 1000) + ": an x");
  }
}

}  // namespace
}  // namespace ktune
