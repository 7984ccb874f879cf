#include "workload/gzip.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
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

std::filesystem::path temp_file(const std::string& name, const std::string& bytes) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("ktune_gzip_test_" +
                     std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
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

TEST(ReadFileLimited, ReadsPlainAndGzipFiles) {
  const std::string text = random_text(10000, 6);
  const auto plain = temp_file("plain.txt", text);
  const auto packed = temp_file("packed.gz", gzip_compress(text));
  EXPECT_EQ(read_file_limited(plain.string(), 1 << 20), text);
  EXPECT_EQ(read_file_limited(packed.string(), 1 << 20), text);
  std::filesystem::remove(plain);
  std::filesystem::remove(packed);
}

TEST(ReadFileLimited, MissingFileIsNotFound) {
  try {
    read_file_limited("no/such/file.mtx", 100);
    FAIL();
  } catch (const NotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
  }
}

TEST(ReadFileLimited, DirectoryIsInputError) {
  EXPECT_THROW(read_file_limited(std::filesystem::temp_directory_path().string(), 100), InputError);
}

TEST(ReadFileLimited, LargeFileOrContentIsLimitError) {
  const std::string text(50000, 'z');
  const auto plain = temp_file("big.txt", text);
  const auto packed = temp_file("big.gz", gzip_compress(text));
  EXPECT_THROW(read_file_limited(plain.string(), 1000), LimitError);
  EXPECT_THROW(read_file_limited(packed.string(), 1000), LimitError);  // small file, big content
  std::filesystem::remove(plain);
  std::filesystem::remove(packed);
}

}  // namespace
}  // namespace ktune
