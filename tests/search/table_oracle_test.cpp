// The SAAKE oracle over a recorded predictions table, on a hand-made four-row table: it
// answers what the table records, refuses what it does not hold, and the walk over it ends
// at the table's best when the moves lead there.
#include "search/table_oracle.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "search/saake_walk.h"

namespace ktune {
namespace {

ParameterSpace x_space() {
  ParameterSpace s;
  s.params = {Parameter::power_of_two("x", 1, 8)};
  return s;
}

Config at(int64_t x) { return {{"x", x}}; }

// Doubling x is the one canonical direction.
CanonicalDirection doubling() {
  return {"x", "coarsen", [](const Config& c) -> std::optional<Config> {
            if (c.at("x") >= 8) return std::nullopt;
            return Config{{"x", c.at("x") * 2}};
          }};
}

struct Row {
  int64_t x;
  double us, occupancy, dram;
  const char* kind;
};

// x=1 and x=2 are latency-bound on DRAM (utilisation 0.5, then 0.75: the walk extrapolates
// two doublings to saturate it, landing on x=4); x=4 is the fastest; x=8 moves no fewer DRAM
// transactions (0.9 x 12 > 1.0 x 10), so the throughput move stops there.
const Row kRows[] = {{1, 40, 1.0, 0.5, "latency"},
                     {2, 20, 0.5, 0.75, "latency"},
                     {4, 10, 0.5, 1.0, "throughput"},
                     {8, 12, 0.25, 0.9, "throughput"}};

std::string write_predictions(const ParameterSpace& space, const std::string& name) {
  nlohmann::json configs = nlohmann::json::array();
  for (const Row& r : kRows) {
    configs.push_back({{"config", space.canonical(at(r.x))},
                       {"predicted_us", r.us},
                       {"occupancy", r.occupancy},
                       {"bottleneck", "dram"},
                       {"kind", r.kind},
                       {"utilisation", {{"dram", r.dram}, {"issue", 0.1}}}});
  }
  const nlohmann::json j = {{"meta", {{"device", "test"}}},
                            {"workloads", {{{"workload", "tiny"}, {"dtype", "f32"}, {"configs", configs}}}}};
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << j.dump();
  return path;
}

TEST(TableOracle, EvaluateReturnsTheRecordedValues) {
  const ParameterSpace space = x_space();
  const auto tables = load_prediction_tables(write_predictions(space, "table_oracle_values.json"), same_space(space));
  ASSERT_EQ(tables.count("tiny/f32"), 1u);
  TableOracle oracle(space, tables.at("tiny/f32"));
  for (const Row& r : kRows) {
    const std::optional<OracleView> v = oracle.evaluate(at(r.x));
    ASSERT_TRUE(v) << r.x;
    EXPECT_DOUBLE_EQ(v->time_us, r.us);
    EXPECT_DOUBLE_EQ(v->occupancy, r.occupancy);
    EXPECT_EQ(v->bottleneck.resource, "dram");
    EXPECT_EQ(v->bottleneck.kind,
              std::string(r.kind) == "latency" ? WalkBottleneckKind::Latency : WalkBottleneckKind::Throughput);
    EXPECT_DOUBLE_EQ(v->utilisation.at("dram"), r.dram);
    EXPECT_DOUBLE_EQ(v->transactions.at("dram"), r.dram * r.us);  // busy time stands in for transactions
    EXPECT_DOUBLE_EQ(v->transactions.at("issue"), 0.1 * r.us);
    // No neighbour is recorded at occupancy 0.75: the bottleneck there is the recorded one.
    EXPECT_EQ(oracle.bottleneck_at(at(r.x), 0.75), v->bottleneck);
  }
}

TEST(TableOracle, TheBottleneckAtALowerOccupancyIsTheNeighboursRecordedThere) {
  const ParameterSpace space = x_space();
  const auto tables = load_prediction_tables(write_predictions(space, "table_oracle_at.json"), same_space(space));
  TableOracle oracle(space, tables.at("tiny/f32"));
  const WalkBottleneck latency{"dram", WalkBottleneckKind::Latency};
  const WalkBottleneck throughput{"dram", WalkBottleneckKind::Throughput};
  // x = 1 is latency-bound at 1.0; its neighbour x = 8 runs at 0.25, throughput-bound.
  EXPECT_EQ(oracle.bottleneck_at(at(1), 0.25), throughput);
  // At 0.5 the neighbours x = 2 (latency) and x = 4 (throughput) tie: the smaller kind wins.
  EXPECT_EQ(oracle.bottleneck_at(at(1), 0.5), latency);
  // x = 2's neighbours at 0.5 are x = 4 only (itself is no neighbour): one vote.
  EXPECT_EQ(oracle.bottleneck_at(at(2), 0.5), throughput);
}

TEST(TableOracle, LowerOccupanciesAreTheDistinctRecordedOnesBelowItsOwnLargestFirst) {
  const ParameterSpace space = x_space();
  const auto tables = load_prediction_tables(write_predictions(space, "table_oracle_levels.json"), same_space(space));
  TableOracle oracle(space, tables.at("tiny/f32"));
  EXPECT_EQ(oracle.lower_occupancies(at(1)), (std::vector<double>{0.5, 0.25}));  // 0.5 recorded twice
  EXPECT_EQ(oracle.lower_occupancies(at(4)), (std::vector<double>{0.25}));
  EXPECT_TRUE(oracle.lower_occupancies(at(8)).empty());
}

// A configuration the table has no row for was never predicted (a format the workload refuses):
// evaluate answers nothing, as at the edge of the space; what needs its row is a clear error.
TEST(TableOracle, AConfigurationWithoutARowIsNotEvaluated) {
  const ParameterSpace space = x_space();
  PredictionTable table = load_prediction_tables(write_predictions(space, "table_oracle_missing.json"), same_space(space)).at("tiny/f32");
  table.rows.erase(space.canonical(at(8)));
  TableOracle oracle(space, table);
  EXPECT_FALSE(oracle.evaluate(at(8)).has_value());
  EXPECT_TRUE(oracle.evaluate(at(4)).has_value());
  try {
    oracle.lower_occupancies(at(8));
    FAIL() << "no error for a configuration the table lacks";
  } catch (const std::out_of_range& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(space.canonical(at(8))), std::string::npos) << what;
    EXPECT_NE(what.find("tiny/f32"), std::string::npos) << what;
  }
}

TEST(TableOracle, LoadingRejectsConfigurationsOutsideTheSpace) {
  ParameterSpace small;
  small.params = {Parameter::power_of_two("x", 1, 4)};  // x=8 is not a configuration of it
  EXPECT_THROW(load_prediction_tables(write_predictions(x_space(), "table_oracle_outside.json"), same_space(small)),
               std::runtime_error);
}

TEST(TableOracle, TheWalkEndsAtTheTablesBest) {
  const ParameterSpace space = x_space();
  const auto tables = load_prediction_tables(write_predictions(space, "table_oracle_walk.json"), same_space(space));
  TableOracle oracle(space, tables.at("tiny/f32"));
  const std::vector<SaakeWalk> walks = saake_search(oracle, CanonicalMoves{{at(1)}, {doubling()}});
  ASSERT_EQ(walks.size(), 1u);
  ASSERT_TRUE(walks[0].best);
  EXPECT_EQ(*walks[0].best, at(4));
  EXPECT_DOUBLE_EQ(walks[0].predicted_us, 10);
  EXPECT_EQ(walks[0].path, (std::vector<Config>{at(1), at(4)}));  // one extrapolated move of two doublings
  EXPECT_EQ(walks[0].stop, "fixed-point");
}

}  // namespace
}  // namespace ktune
