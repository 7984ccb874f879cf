#include "workload/line_chunks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "workload/input_error.h"

namespace ktune {
namespace {

TEST(LineChunks, PiecesAreWholeLinesNumberedAsInTheText) {
  std::string text;
  for (int i = 1; i <= 1000; ++i) text += std::to_string(i) + (i % 7 ? " x\n" : " a longer line here\n");
  text += "last line without a newline";
  const auto source = text_from_bytes(text);
  LineChunks chunks(*source, 100);
  std::string joined;
  int pieces = 0;
  for (std::string_view piece = chunks.next(); !piece.empty(); piece = chunks.next(), ++pieces) {
    EXPECT_EQ(chunks.offset(), joined.size());
    // The piece's first line is the line its number says.
    const std::string expected = std::to_string(chunks.first_line());
    if (chunks.first_line() <= 1000) {
      EXPECT_EQ(piece.substr(0, expected.size()), expected);
    }
    joined.append(piece);
    EXPECT_TRUE(piece.back() == '\n' || joined.size() == text.size()) << piece;
    EXPECT_EQ(chunks.bytes_read(), joined.size());
  }
  EXPECT_EQ(joined, text);
  EXPECT_GT(pieces, 50);
}

TEST(LineChunks, ALineLongerThanTheLimitNamesItself) {
  const std::string text = "1 2\n3 4\n" + std::string(5000, '7') + "\n5 6\n";
  const auto source = text_from_bytes(text);
  LineChunks chunks(*source, 16, 1000);
  chunks.next();
  try {
    while (!chunks.next().empty()) {
    }
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "line 3 is longer than 1000 bytes");
  }
}

TEST(LineChunks, ALongLineWithinTheLimitGrowsThePiece) {
  const std::string text = "1\n" + std::string(500, '7') + "\n2\n";
  const auto source = text_from_bytes(text);
  LineChunks chunks(*source, 16, 1000);
  std::string joined;
  for (std::string_view piece = chunks.next(); !piece.empty(); piece = chunks.next()) joined.append(piece);
  EXPECT_EQ(joined, text);
}

// Found by fuzzing (fuzz/fuzz_matrix_market): however short the text, a whole piece of
// buffer (16 MB) was zeroed for it: 14 ms a parse under the sanitizers.
TEST(LineChunks, AShortTextTakesAShortBuffer) {
  struct Recording : TextSource {
    std::unique_ptr<TextSource> inner = text_from_bytes("1 2\n3 4\n");
    size_t largest_capacity = 0;
    size_t read(char* out, size_t capacity) override {
      largest_capacity = std::max(largest_capacity, capacity);
      return inner->read(out, capacity);
    }
  } source;
  LineChunks chunks(source);
  EXPECT_EQ(chunks.next(), "1 2\n3 4\n");
  EXPECT_TRUE(chunks.next().empty());
  EXPECT_LE(source.largest_capacity, size_t{1} << 20);
}

}  // namespace
}  // namespace ktune
