#include "clients/upload_answer.h"

#include <gtest/gtest.h>

namespace ktune {
namespace {

using nlohmann::json;

TEST(UploadAnswer, ExactSignatureFromAnObjectOrAString) {
  EXPECT_EQ(exact_signature({{"signature", {{"exact", "abc"}, {"features", {1.0}}}}}), "abc");
  EXPECT_EQ(exact_signature({{"signature", "def"}}), "def");
}

TEST(UploadAnswer, NoSignatureReadsAsEmpty) {
  EXPECT_EQ(exact_signature(json::object()), "");
  EXPECT_EQ(exact_signature({{"signature", nullptr}}), "");
  EXPECT_EQ(exact_signature({{"signature", {{"exact", 5}}}}), "");
  EXPECT_EQ(exact_signature(json::array()), "");
}

TEST(UploadAnswer, FeaturesAreTheNumericVector) {
  const std::vector<double> features =
      signature_features({{"signature", {{"exact", "abc"}, {"features", {1.5, -2.0, 0.0}}}}});
  EXPECT_EQ(features, (std::vector<double>{1.5, -2.0, 0.0}));
}

TEST(UploadAnswer, MissingOrMalformedFeaturesReadAsNone) {
  EXPECT_TRUE(signature_features({{"signature", "abc"}}).empty());
  EXPECT_TRUE(signature_features({{"signature", {{"exact", "abc"}}}}).empty());
  EXPECT_TRUE(signature_features({{"signature", {{"features", {1.0, "x"}}}}}).empty());
  EXPECT_TRUE(signature_features({{"signature", {{"features", 3.0}}}}).empty());
}

}  // namespace
}  // namespace ktune
