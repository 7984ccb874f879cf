// The SAAKE walk (Algorithms 2 and 3) against fake oracles whose right answer is known.
#include "search/saake_walk.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace ktune {
namespace {

// x is a power of two; one unit step doubles it.
CanonicalDirection doubling(const std::string& name, int64_t hi) {
  return {name, "coarsen", [name, hi](const Config& c) -> std::optional<Config> {
            Config n = c;
            n.at(name) *= 2;
            if (n.at(name) > hi) return std::nullopt;
            return n;
          }};
}

Config at(int64_t x, int64_t y = 1) { return {{"x", x}, {"y", y}}; }

// An oracle built from plain functions of the configuration.
class FakeOracle : public SaakeOracle {
 public:
  std::function<std::optional<OracleView>(const Config&)> view;
  std::function<std::optional<WalkBottleneck>(const Config&, double)> at_occupancy =
      [](const Config&, double) { return std::nullopt; };
  std::function<std::vector<double>(const Config&)> levels = [](const Config&) { return std::vector<double>{}; };
  int evaluations = 0;

  std::optional<OracleView> evaluate(const Config& c) override {
    ++evaluations;
    return view(c);
  }
  std::optional<WalkBottleneck> bottleneck_at(const Config& c, double o) override { return at_occupancy(c, o); }
  std::vector<double> lower_occupancies(const Config& c) override { return levels(c); }
};

const WalkBottleneck kDramLatency{"dram", WalkBottleneckKind::Latency};
const WalkBottleneck kDramThroughput{"dram", WalkBottleneckKind::Throughput};

// DRAM utilisation grows by a quarter per doubling of x until it saturates at x = 8; past
// that, time grows again. Latency-bound below 8, throughput-bound from 8 on, with nothing
// left to save: the optimum is x = 8 and the walk must reach it in one extrapolated move.
std::optional<OracleView> saturating(const Config& c) {
  const double x = static_cast<double>(c.at("x"));
  OracleView v;
  v.utilisation["dram"] = std::min(1.0, (std::log2(x) + 1) / 4);
  v.time_us = 100 / v.utilisation["dram"] + (x > 8 ? x : 0);
  v.occupancy = 1;
  v.bottleneck = x < 8 ? kDramLatency : kDramThroughput;
  v.transactions["dram"] = 1000;
  return v;
}

TEST(SaakeWalk, LatencyMoveExtrapolatesToSaturationAndStopsAtTheFixedPoint) {
  FakeOracle oracle;
  oracle.view = saturating;
  const SaakeWalk walk = saake_walk(oracle, {doubling("x", 64)}, at(1));
  ASSERT_TRUE(walk.best);
  EXPECT_EQ(walk.best->at("x"), 8);
  EXPECT_DOUBLE_EQ(walk.predicted_us, 100);
  EXPECT_EQ(walk.stop, "fixed-point");
  // One move: U = 0.25, dU = 0.25 → three unit steps reach U = 1, not one step at a time.
  ASSERT_EQ(walk.path.size(), 2u);
  EXPECT_EQ(walk.path[1].at("x"), 8);
}

TEST(SaakeWalk, LatencyMovePicksTheDirectionThatRaisesTheBottleneckResource) {
  // y raises DRAM utilisation, x raises only the FP32 pipe's: the walk must move y.
  FakeOracle oracle;
  oracle.view = [](const Config& c) -> std::optional<OracleView> {
    OracleView v;
    const double y = static_cast<double>(c.at("y"));
    v.utilisation["dram"] = std::min(1.0, (std::log2(y) + 1) / 3);  // saturates at y = 4
    v.utilisation["fp32"] = std::min(1.0, static_cast<double>(c.at("x")) / 2);
    v.time_us = 10 / v.utilisation["dram"];
    v.occupancy = 0.5;
    v.bottleneck = y < 4 ? kDramLatency : kDramThroughput;
    return v;
  };
  const SaakeWalk walk = saake_walk(oracle, {doubling("x", 64), doubling("y", 64)}, at(1, 1));
  ASSERT_TRUE(walk.best);
  EXPECT_EQ(walk.best->at("x"), 1);
  EXPECT_EQ(walk.best->at("y"), 4);
}

TEST(SaakeWalk, RespectsTheStepCap) {
  // Utilisation creeps up by 1% a step and time keeps falling: only the cap ends the walk.
  FakeOracle oracle;
  oracle.view = [](const Config& c) -> std::optional<OracleView> {
    OracleView v;
    v.utilisation["dram"] = 0.01 * static_cast<double>(c.at("x"));
    v.time_us = 1000.0 / static_cast<double>(c.at("x"));
    v.occupancy = 1;
    v.bottleneck = kDramLatency;
    return v;
  };
  const CanonicalDirection plus_one{"x", "coarsen", [](const Config& c) -> std::optional<Config> {
                                      Config n = c;
                                      ++n.at("x");
                                      return n;
                                    }};
  SaakeLimits limits;
  limits.max_steps = 5;
  limits.max_stride = 1;
  const SaakeWalk walk = saake_walk(oracle, {plus_one}, at(1), limits);
  EXPECT_EQ(walk.stop, "cap");
  EXPECT_EQ(walk.path.size(), 6u);  // the start and five moves
  EXPECT_EQ(walk.best->at("x"), 6);
}

TEST(SaakeWalk, StopsWhenAMoveLeadsBackToAVisitedConfiguration) {
  // Two directions that undo each other, each looking better from the other side.
  FakeOracle oracle;
  oracle.view = [](const Config& c) -> std::optional<OracleView> {
    OracleView v;
    v.utilisation["dram"] = c.at("x") == 1 ? 0.2 : 0.1;  // from 2, going back to 1 looks good
    v.time_us = 10;
    v.occupancy = 1;
    v.bottleneck = kDramLatency;
    return v;
  };
  const CanonicalDirection toggle{"x", "reshape", [](const Config& c) -> std::optional<Config> {
                                    Config n = c;
                                    n.at("x") = c.at("x") == 1 ? 2 : 1;
                                    return n;
                                  }};
  // From 2, utilisation rises towards 1, and the extrapolated stride (8 unit steps) toggles
  // back to 2 itself: a move to where the walk already was, which must end it, not loop.
  const SaakeWalk walk = saake_walk(oracle, {toggle}, at(2));
  EXPECT_EQ(walk.stop, "fixed-point");
  EXPECT_EQ(walk.path.size(), 1u);
  EXPECT_EQ(walk.best->at("x"), 2);
}

// Latency-bound on DRAM whose utilisation no direction raises: Algorithm 3 proposes nothing.
// Time falls (or rises) with y, a sibling direction the latency branch does not look at.
FakeOracle flat_dram(bool faster_with_y) {
  FakeOracle oracle;
  oracle.view = [faster_with_y](const Config& c) -> std::optional<OracleView> {
    OracleView v;
    const double y = static_cast<double>(c.at("y"));
    v.utilisation["dram"] = 0.5;
    v.time_us = faster_with_y ? 10 / y : 10 * y;
    v.occupancy = 1;
    v.bottleneck = kDramLatency;
    return v;
  };
  return oracle;
}

TEST(SaakeWalk, AFixedPointTriesTheOtherDirectionsFirst) {
  FakeOracle oracle = flat_dram(true);
  const SaakeWalk walk = saake_walk(oracle, {doubling("x", 1), doubling("y", 4)}, at(1, 1));
  EXPECT_EQ(walk.stop, "fixed-point");  // at y = 4 no direction is left
  ASSERT_EQ(walk.path.size(), 3u);      // one unit step at a time: y = 2, then y = 4
  EXPECT_EQ(walk.best->at("y"), 4);
  EXPECT_DOUBLE_EQ(walk.predicted_us, 2.5);
}

TEST(SaakeWalk, AFixedPointHoldsWhenNoOtherDirectionIsPredictedFaster) {
  FakeOracle oracle = flat_dram(false);
  const SaakeWalk walk = saake_walk(oracle, {doubling("x", 1), doubling("y", 4)}, at(1, 1));
  EXPECT_EQ(walk.stop, "fixed-point");
  EXPECT_EQ(walk.path.size(), 1u);
  EXPECT_EQ(walk.best->at("y"), 1);
}

// Each config lists its occupancy and time: x = 1 (occ 1, 10 µs) → 2 (occ 1, 8 µs) →
// 4 (occ 0.5, 9 µs) → 8 (occ 0.25, 12 µs). Level 1's best is 8 µs; level 0.5 does not beat
// it, so on entering level 0.25 Algorithm 2 stops and returns the previous level's best.
TEST(SaakeWalk, ReturnsThePreviousLevelsBestWhenALowerLevelDoesNotBeatIt) {
  FakeOracle oracle;
  oracle.view = [](const Config& c) -> std::optional<OracleView> {
    OracleView v;
    const int64_t x = c.at("x");
    v.occupancy = x <= 2 ? 1.0 : x == 4 ? 0.5 : 0.25;
    v.time_us = x == 1 ? 10 : x == 2 ? 8 : x == 4 ? 9 : 7;  // x = 16 would be faster: never reached
    v.utilisation["dram"] = 0.1 * static_cast<double>(x);
    v.bottleneck = kDramLatency;
    return v;
  };
  SaakeLimits limits;
  limits.max_stride = 1;
  const SaakeWalk walk = saake_walk(oracle, {doubling("x", 64)}, at(1), limits);
  EXPECT_EQ(walk.stop, "level");
  ASSERT_TRUE(walk.best);
  EXPECT_EQ(walk.best->at("x"), 2);
  EXPECT_DOUBLE_EQ(walk.predicted_us, 8);
  EXPECT_EQ(walk.path.back().at("x"), 8);  // it looked at the lower level before stopping
}

TEST(SaakeWalk, ThroughputMoveTakesTheFewestTransactionsThatKeepTheOccupancy) {
  // Throughput-bound on DRAM at occupancy 1. Giving up occupancy down to 0.5 keeps DRAM the
  // bottleneck; at 0.5 it would turn latency-bound. Candidates: x doubles (fewer transactions,
  // occupancy halves each time). x = 2 keeps 0.5 and has fewer transactions than x = 1;
  // x = 4 has fewer still but only 0.25 occupancy: refused.
  FakeOracle oracle;
  oracle.view = [](const Config& c) -> std::optional<OracleView> {
    OracleView v;
    const double x = static_cast<double>(c.at("x"));
    v.occupancy = 1 / x;
    v.transactions["dram"] = 1000 / x;
    v.time_us = 100 - x;
    v.bottleneck = kDramThroughput;
    return v;
  };
  oracle.levels = [](const Config&) { return std::vector<double>{0.75, 0.5, 0.25}; };
  oracle.at_occupancy = [](const Config&, double o) -> std::optional<WalkBottleneck> {
    return o <= 0.5 ? kDramLatency : kDramThroughput;
  };
  const std::optional<OracleView> view = oracle.evaluate(at(1));
  const std::optional<Config> next = saake_next_best(oracle, {doubling("x", 64)}, at(1), *view, SaakeLimits{});
  ASSERT_TRUE(next);
  EXPECT_EQ(next->at("x"), 2);
}

TEST(SaakeSearch, ReturnsTheFastestWalkFirst) {
  FakeOracle oracle;
  oracle.view = saturating;
  CanonicalMoves moves;
  moves.starts = {at(16), at(1)};  // from 16 the walk has nowhere better to go
  moves.directions = {doubling("x", 64)};
  const std::vector<SaakeWalk> walks = saake_search(oracle, moves);
  ASSERT_EQ(walks.size(), 2u);
  EXPECT_EQ(walks[0].best->at("x"), 8);
  EXPECT_LT(walks[0].predicted_us, walks[1].predicted_us);
}

TEST(SaakeSearch, WalksSideBySideOnTheirOwnOraclesAsTheyWalkInTurn) {
  CanonicalMoves moves;
  moves.starts = {at(16), at(1), at(2), at(64)};
  moves.directions = {doubling("x", 64)};
  FakeOracle serial;
  serial.view = saturating;
  const std::vector<SaakeWalk> expected = saake_search(serial, moves);

  std::vector<FakeOracle> oracles(moves.starts.size());
  for (FakeOracle& o : oracles) o.view = saturating;
  ThreadPool pool(3);
  const std::vector<SaakeWalk> walks =
      saake_search([&oracles](size_t i) -> SaakeOracle& { return oracles[i]; }, moves, pool);
  ASSERT_EQ(walks.size(), expected.size());
  for (size_t i = 0; i < walks.size(); ++i) {
    EXPECT_EQ(walks[i].best, expected[i].best) << i;
    EXPECT_EQ(walks[i].path, expected[i].path) << i;
    EXPECT_DOUBLE_EQ(walks[i].predicted_us, expected[i].predicted_us) << i;
  }
  for (const FakeOracle& o : oracles) EXPECT_GT(o.evaluations, 0);  // each start walked on its own oracle
}

}  // namespace
}  // namespace ktune
