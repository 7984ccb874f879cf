#include "workload/sha256.h"

#include <gtest/gtest.h>

namespace ktune {
namespace {

// Test vectors from FIPS 180-2, appendix B.
TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, IncrementalEqualsOneShot) {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += static_cast<char>(i * 7919 % 251);
  Sha256 hash;
  for (size_t at = 0, step = 1; at < text.size(); at += step, step = step * 3 % 97 + 1) {
    hash.update(text.data() + at, std::min(step, text.size() - at));
  }
  EXPECT_EQ(hash.hex_digest(), sha256_hex(text));
}

TEST(Sha256, DigestDoesNotEndTheHash) {
  Sha256 hash;
  hash.update("ab");
  EXPECT_EQ(hash.hex_digest(), sha256_hex("ab"));
  hash.update(std::string_view("c"));
  EXPECT_EQ(hash.hex_digest(), sha256_hex("abc"));
}

}  // namespace
}  // namespace ktune
