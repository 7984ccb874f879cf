// Inputs are named by content: their SHA-256, or for generated operands their recipe, so equal
// bytes share one upload and different ones never do.
#include "kernels/host_bytes.h"

#include <gtest/gtest.h>

#include "workload/sha256.h"

namespace ktune {
namespace {

std::vector<std::byte> bytes_of(const std::string& s) {
  std::vector<std::byte> out(s.size());
  for (size_t i = 0; i < s.size(); ++i) out[i] = static_cast<std::byte>(s[i]);
  return out;
}

TEST(HostBytes, PlainBytesAreNamedByTheirHash) {
  const HostBytes b(bytes_of("abc"));
  EXPECT_EQ(b.content_id(), sha256_hex("abc"));
  EXPECT_EQ(HostBytes(bytes_of("abc")).content_id(), b.content_id());
  EXPECT_NE(HostBytes(bytes_of("abd")).content_id(), b.content_id());
}

TEST(HostBytes, GeneratedBytesAreNamedByTheirRecipeAndNeverByAHash) {
  const HostBytes a = HostBytes::generated(bytes_of("abc"), "operand/a/f32/1x3");
  EXPECT_EQ(a.content_id(), "generated:operand/a/f32/1x3");
  EXPECT_EQ(a.view(), "abc");
  EXPECT_NE(HostBytes::generated(bytes_of("abc"), "operand/b/f32/1x3").content_id(), a.content_id());
  EXPECT_NE(HostBytes(bytes_of("abc")).content_id(), a.content_id()) << "a recipe cannot pass for a hash";
}

}  // namespace
}  // namespace ktune
