#include "workload/gzip.h"

#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "workload/input_error.h"

namespace ktune {
namespace {

std::string random_text(size_t bytes, unsigned seed) {
  std::mt19937 rng(seed);
  std::string text;
  while (text.size() < bytes) text += std::to_string(rng() % 100000) + (rng() % 8 ? " " : "\n");
  return text;
}

TEST(Gzip, DetectsMagicBytes) {
  EXPECT_TRUE(is_gzip(gzip_compress("x")));
  EXPECT_FALSE(is_gzip("%%MatrixMarket"));
  EXPECT_FALSE(is_gzip("\x1f"));
  EXPECT_FALSE(is_gzip(""));
}

TEST(Gzip, RoundTripsAtEveryLevel) {
  const std::string text = random_text(300000, 1);
  for (int level : {1, 6, 9}) {
    const std::string packed = gzip_compress(text, level);
    EXPECT_LT(packed.size(), text.size());
    EXPECT_EQ(gunzip_if_compressed(packed, text.size()), text) << "level " << level;
  }
}

TEST(Gzip, RoundTripsEmptyInput) { EXPECT_EQ(gunzip_if_compressed(gzip_compress(""), 10), ""); }

TEST(Gzip, PlainBytesPassThrough) { EXPECT_EQ(gunzip_if_compressed("1 2 3\n", 100), "1 2 3\n"); }

TEST(Gzip, ConcatenatesMembers) {
  const std::string a = random_text(5000, 2), b = random_text(7000, 3);
  EXPECT_EQ(gunzip_if_compressed(gzip_compress(a) + gzip_compress(b), 1 << 20), a + b);
}

TEST(Gzip, OutputBeyondLimitIsLimitError) {
  const std::string text(100000, 'a');  // compresses to a few hundred bytes
  EXPECT_THROW(gunzip_if_compressed(gzip_compress(text), text.size() - 1), LimitError);
  EXPECT_EQ(gunzip_if_compressed(gzip_compress(text), text.size()).size(), text.size());
  EXPECT_THROW(gunzip_if_compressed(text, text.size() - 1), LimitError);
}

TEST(Gzip, CorruptStreamNamesTheProblem) {
  std::string packed = gzip_compress(random_text(20000, 4));
  packed[packed.size() / 2] = static_cast<char>(packed[packed.size() / 2] ^ 0x55);
  try {
    gunzip_if_compressed(packed, 1 << 20);
    FAIL() << "corrupt data accepted";
  } catch (const LimitError&) {
    FAIL() << "corrupt data reported as a size limit";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("gzip"), std::string::npos) << e.what();
  }
}

TEST(Gzip, TruncatedStreamSaysTruncated) {
  const std::string packed = gzip_compress(random_text(20000, 5));
  try {
    gunzip_if_compressed(packed.substr(0, packed.size() / 2), 1 << 20);
    FAIL() << "truncated data accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
  }
}

// The size in the trailer is only a claim: a lie is caught by zlib's length check.
TEST(Gzip, LyingSizeTrailerIsCorrupt) {
  std::string packed = gzip_compress("1 2 3\n");
  packed.replace(packed.size() - 4, 4, "\xff\xff\xff\x7f");
  EXPECT_THROW(gunzip_if_compressed(packed, size_t{1} << 40), InputError);
}

TEST(Gzip, TrailingGarbageIsRefused) {
  EXPECT_THROW(gunzip_if_compressed(gzip_compress("abc") + "junk", 100), InputError);
}

TEST(Gzip, InflatingStopsJustPastTheLimit) {
  // A member of 16 MB of zeros, repeated: 1 GB of content in about 16 KB a member.
  const std::string member = gzip_compress(std::string(size_t{16} << 20, '0'), 9);
  std::string bomb;
  for (int i = 0; i < 64; ++i) bomb += member;
  ASSERT_LT(bomb.size(), size_t{2} << 20);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(gunzip_if_compressed(bomb, 1 << 20), LimitError);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

}  // namespace
}  // namespace ktune
