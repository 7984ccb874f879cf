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
  const HostBytes a = HostBytes::generated("operand/a/f32/1x3", [] { return bytes_of("abc"); });
  EXPECT_EQ(a.content_id(), "generated:operand/a/f32/1x3");
  EXPECT_EQ(a.view(), "abc");
  EXPECT_NE(HostBytes::generated("operand/b/f32/1x3", [] { return bytes_of("abc"); }).content_id(), a.content_id());
  EXPECT_NE(HostBytes(bytes_of("abc")).content_id(), a.content_id()) << "a recipe cannot pass for a hash";
}

// Plans prepared side by side share one copy of a generated operand while any of them holds it;
// once none does, the recipe is made afresh.
TEST(HostBytes, ARecipeIsMadeOnceWhileACopyLives) {
  int made = 0;
  const auto make = [&made] {
    ++made;
    return bytes_of("xyz");
  };
  {
    const HostBytes first = HostBytes::generated("operand/shared/f32/1x3", make);
    const HostBytes second = HostBytes::generated("operand/shared/f32/1x3", make);
    EXPECT_EQ(made, 1);
    EXPECT_EQ(first.data(), second.data());
  }
  const HostBytes again = HostBytes::generated("operand/shared/f32/1x3", make);
  EXPECT_EQ(made, 2);
  EXPECT_EQ(again.view(), "xyz");
}

// A tune's plans come and go one after another: while a Keep lives, their operand is made once.
TEST(HostBytes, AKeepHoldsGeneratedBytesPastTheirLastCopy) {
  int made = 0;
  const auto make = [&made] {
    ++made;
    return bytes_of("kept");
  };
  {
    const HostBytes::Keep keep;
    (void)HostBytes::generated("operand/kept/f32/1x4", make);
    EXPECT_EQ(HostBytes::generated("operand/kept/f32/1x4", make).view(), "kept");
    EXPECT_EQ(made, 1);
  }
  (void)HostBytes::generated("operand/kept/f32/1x4", make);
  EXPECT_EQ(made, 2) << "the last Keep released them";
}

}  // namespace
}  // namespace ktune
