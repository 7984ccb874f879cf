#include "kernels/sddmm/sddmm_config.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "workload/input_error.h"

namespace ktune {
namespace {

using Shape = std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t, int64_t>;  // schedule, block, lanes, vec, coarsen, chunks

Config sddmm(int64_t schedule, int64_t block, int64_t lanes, int64_t vec, int64_t coarsen, int64_t chunks) {
  return {{"schedule", schedule}, {"block", block}, {"lanes", lanes}, {"vec", vec}, {"coarsen", coarsen}, {"chunks", chunks}};
}

// The space as sddmm_config.h documents it, built without ParameterSpace.
std::set<Shape> documented_space(int64_t k) {
  std::set<Shape> shapes;
  for (int64_t block : {128, 256})
    for (int64_t lanes : {4, 8, 16, 32})
      for (int64_t vec : {1, 2, 4}) {
        // Vector loads need aligned rows; a group far wider than K leaves most lanes idle.
        if (k % vec != 0 || (lanes * vec >= 2 * k && !(lanes == 4 && vec == 1))) continue;
        for (int64_t coarsen : {1, 2, 4}) shapes.insert({0, block, lanes, vec, coarsen, 1});
        for (int64_t chunks : {1, 2, 4}) {
          const int64_t tile = lanes * vec * chunks;
          if ((chunks > 1 && tile >= 2 * k) || tile * 8 < k) continue;
          shapes.insert({1, block, lanes, vec, 1, chunks});
          if (tile <= 128) shapes.insert({2, block, lanes, vec, 1, chunks});
        }
      }
  return shapes;
}

TEST(SddmmSpace, HoldsExactlyTheDocumentedConfigurationsForEveryK) {
  size_t largest = 0;
  for (int64_t k = 1; k <= kSddmmMaxK; k += k < 64 ? 1 : 61) {
    std::set<Shape> got;
    const std::vector<Config> configs = sddmm_space(static_cast<int32_t>(k)).enumerate();
    for (const Config& c : configs)
      got.insert({c.at("schedule"), c.at("block"), c.at("lanes"), c.at("vec"), c.at("coarsen"), c.at("chunks")});
    ASSERT_EQ(got, documented_space(k)) << "k = " << k;
    EXPECT_EQ(configs.size(), got.size());
    for (SddmmSchedule s : {SddmmSchedule::Nonzero, SddmmSchedule::Row, SddmmSchedule::Tiled}) {
      const Config first = sddmm_first_config(s, static_cast<int32_t>(k));
      EXPECT_EQ(first.at("schedule"), static_cast<int64_t>(s));
      EXPECT_EQ(first, *std::find_if(configs.begin(), configs.end(), [&](const Config& c) { return c.at("schedule") == static_cast<int64_t>(s); }));
    }
    largest = std::max(largest, configs.size());
  }
  EXPECT_LE(largest, 190u);  // every configuration is compiled and interpreted in CI, per dtype
}

void expect_refused(const Config& c, int32_t k, const std::string& part) {
  try {
    SddmmConfig::from(c, k);
    FAIL() << "accepted; expected a refusal mentioning " << part;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(SddmmSpace, RefusalsNameTheRule) {
  expect_refused(sddmm(0, 128, 8, 4, 1, 1), 30, "vec must divide k = 30");
  expect_refused(sddmm(1, 128, 8, 1, 2, 1), 64, "coarsen must be 1");
  expect_refused(sddmm(0, 128, 8, 1, 1, 2), 64, "chunks must be 1");
  expect_refused(sddmm(0, 128, 32, 2, 1, 1), 32, "lanes * vec must be under 2k");
  expect_refused(sddmm(1, 128, 8, 2, 1, 4), 32, "chunks above 1");
  expect_refused(sddmm(1, 128, 4, 1, 1, 1), 64, "at most 8 passes");
  expect_refused(sddmm(2, 128, 32, 4, 1, 2), 1024, "lanes * vec * chunks <= 128");
  expect_refused(sddmm(0, 64, 4, 1, 1, 1), 32, "block");
}

TEST(SddmmSpace, DecodesAConfigurationAndItsGeometry) {
  const SddmmConfig nonzero = SddmmConfig::from(sddmm(0, 256, 8, 2, 4, 1), 64);
  EXPECT_EQ(nonzero.schedule_name(), "nonzero");
  EXPECT_EQ(nonzero.groups_per_block(), 32);
  EXPECT_EQ(nonzero.blocks(1000, 1000), 8);  // 128 nonzeros a block
  EXPECT_EQ(nonzero.blocks(10, 0), 1);
  const SddmmConfig row = SddmmConfig::from(sddmm(1, 128, 16, 2, 1, 2), 100);
  EXPECT_EQ(row.schedule_name(), "row");
  EXPECT_EQ(row.k_tile(), 64);
  EXPECT_EQ(row.passes(100), 2);
  EXPECT_EQ(row.blocks(17, 5000), 3);  // 8 rows a block
  const SddmmConfig tiled = SddmmConfig::from(sddmm(2, 128, 8, 4, 1, 4), 128);
  EXPECT_EQ(tiled.k_tile(), 128);
  EXPECT_EQ(tiled.slots(Dtype::F64), 32);  // 32 KiB of 128 doubles a slot
  EXPECT_EQ(tiled.slots(Dtype::F32), 64);
  EXPECT_EQ(SddmmConfig::from(sddmm(2, 128, 4, 1, 1, 1), 4).slots(Dtype::F32), 256);  // capped
}

TEST(SddmmSpace, KDefaultsWhenAProblemHasNone) {
  EXPECT_EQ(sddmm_k(Problem::of(Dtype::F32)), kSddmmDefaultK);
  EXPECT_EQ(sddmm_k(Problem::of(Dtype::F32, {{"k", 7}})), 7);
}

}  // namespace
}  // namespace ktune
