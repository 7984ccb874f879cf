#include "workload/text_source.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "workload/gzip.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

std::string all_of(TextSource& source, size_t piece) {
  std::string out, buffer(piece, '\0');
  while (const size_t n = source.read(buffer.data(), buffer.size())) out.append(buffer.data(), n);
  return out;
}

std::string numbers(size_t bytes, unsigned seed) {
  std::mt19937 rng(seed);
  std::string text;
  while (text.size() < bytes) text += std::to_string(rng() % 100000) + (rng() % 8 ? " " : "\n");
  return text;
}

std::filesystem::path temp_file(const std::string& name, const std::string& bytes) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("ktune_text_source_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

TEST(TextSource, ReadsPlainAndGzipBytesInAnyPieceSize) {
  const std::string text = numbers(200000, 1);
  const std::string packed = gzip_compress(text.substr(0, 70000)) + gzip_compress(text.substr(70000));
  for (size_t piece : {size_t{1}, size_t{7}, size_t{4096}, size_t{1} << 20}) {
    EXPECT_EQ(all_of(*text_from_bytes(text), piece), text) << piece;
    EXPECT_EQ(all_of(*text_from_bytes(packed), piece), text) << piece;
  }
}

TEST(TextSource, ReadsPlainAndGzipFiles) {
  const std::string text = numbers(10000, 6);
  const auto plain = temp_file("plain.txt", text);
  const auto packed = temp_file("packed.gz", gzip_compress(text));
  EXPECT_EQ(all_of(*text_from_file(plain.string()), 999), text);
  EXPECT_EQ(all_of(*text_from_file(packed.string()), 999), text);
  std::filesystem::remove(plain);
  std::filesystem::remove(packed);
}

TEST(TextSource, MissingFileIsNotFoundAndDirectoryIsInputError) {
  EXPECT_THROW(text_from_file("no/such/file.mtx"), NotFoundError);
  EXPECT_THROW(text_from_file(std::filesystem::temp_directory_path().string()), InputError);
}

TEST(TextSource, CorruptTruncatedOrTrailingGzipIsInputError) {
  const std::string packed = gzip_compress(numbers(20000, 3));
  std::string corrupt = packed;
  corrupt[corrupt.size() / 2] ^= 0x55;
  EXPECT_THROW(all_of(*text_from_bytes(corrupt), 4096), InputError);
  EXPECT_THROW(all_of(*text_from_bytes(packed.substr(0, packed.size() / 2)), 4096), InputError);
  EXPECT_THROW(all_of(*text_from_bytes(packed + "x"), 4096), InputError);
  EXPECT_THROW(all_of(*text_from_bytes(packed + "junk"), 4096), InputError);
}

}  // namespace
}  // namespace ktune
