// SpMV's canonical directions and the SAAKE walk on the first cost model.
#include <gtest/gtest.h>

#include <set>

#include "kernels/spmv/spmv_config.h"
#include "model/gpu_spec.h"
#include "search/first_model_oracle.h"
#include "search/saake_walk.h"
#include "workload/generators.h"

namespace ktune {
namespace {

const CanonicalDirection& direction(const CanonicalMoves& moves, const std::string& name) {
  for (const CanonicalDirection& d : moves.directions)
    if (d.name == name) return d;
  throw std::runtime_error("no direction " + name);
}

Config row(int64_t block) { return {{"schedule", 0}, {"block", block}, {"lanes", 1}, {"items_per_thread", 1}}; }

TEST(SpmvDirections, ReshapeAndCoarsenAreInversesAcrossRowAndSubwarp) {
  const CanonicalMoves moves = find_family("spmv")->canonical_moves({});
  const std::optional<Config> sub = direction(moves, "lanes").step(row(256));
  ASSERT_TRUE(sub);
  EXPECT_EQ(SpmvConfig::from(*sub).schedule, SpmvSchedule::Subwarp);
  EXPECT_EQ(sub->at("lanes"), 2);
  const std::optional<Config> back = direction(moves, "threads").step(*sub);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, row(256));
  EXPECT_FALSE(direction(moves, "threads").step(row(256))) << "a row schedule thread already owns its row";
  EXPECT_FALSE(direction(moves, "block").step(row(1024))) << "no block beyond the space";
}

// A sell lane walks its whole row in the SELL-32 form: no lanes to add or take away, only blocks.
TEST(SpmvDirections, SellMovesOnlyAlongTheBlock) {
  const CanonicalMoves moves = find_family("spmv")->canonical_moves({});
  const Config sell = spmv_space().from_json({{"schedule", "sell"}, {"block", 128}});
  EXPECT_FALSE(direction(moves, "lanes").step(sell)) << "a subwarp would leave the SELL-32 form";
  EXPECT_FALSE(direction(moves, "threads").step(sell));
  const std::optional<Config> bigger = direction(moves, "block").step(sell);
  ASSERT_TRUE(bigger);
  EXPECT_EQ(SpmvConfig::from(*bigger).schedule, SpmvSchedule::Sell);
  EXPECT_EQ(bigger->at("block"), 256);
}

TEST(SpmvDirections, EveryScheduleHasACanonicalStart) {
  std::set<SpmvSchedule> schedules;
  for (const Config& c : find_family("spmv")->canonical_moves({}).starts) schedules.insert(SpmvConfig::from(c).schedule);
  EXPECT_EQ(schedules, (std::set<SpmvSchedule>{SpmvSchedule::Row, SpmvSchedule::Subwarp, SpmvSchedule::Merge,
                                               SpmvSchedule::Adaptive, SpmvSchedule::Sell, SpmvSchedule::Sell16,
                                               SpmvSchedule::AdaptiveHot}));
}

TEST(SaakeOnFirstModel, WalksToAValidConfigurationNoSlowerThanItsStart) {
  Workload w;
  w.matrix = generate_stencil_2d(64);
  const KernelFamily& spmv = *find_family("spmv");
  ResourceUsage usage;
  usage.registers = 32;
  FirstModelOracle oracle(spmv, w, Problem::of(Dtype::F32), spec_for_arch("sm_90"), usage);
  const CanonicalMoves moves = spmv.canonical_moves({});
  const std::vector<SaakeWalk> walks = saake_search(oracle, moves);
  ASSERT_EQ(walks.size(), moves.starts.size());
  for (const SaakeWalk& walk : walks) {
    ASSERT_TRUE(walk.best);
    EXPECT_TRUE(spmv_space().valid(*walk.best));
    EXPECT_DOUBLE_EQ(walk.predicted_us, oracle.evaluate(*walk.best)->time_us);
    EXPECT_LE(walk.predicted_us, oracle.evaluate(walk.path.front())->time_us);
    EXPECT_NE(walk.stop, "no-start");
  }
  EXPECT_LE(walks[0].predicted_us, walks.back().predicted_us);
}

}  // namespace
}  // namespace ktune
