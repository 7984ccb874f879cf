// The model side of the offline search evaluation on the recorded SpMV data: the emulator's
// predictions replace the first model's where the predictions file holds the case, the
// SAAKE walk over them gives the seed, and the cases the file lacks fall back, labelled.
#include "bench/offline_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

namespace ktune {
namespace {

TEST(OfflineSeed, EmulatorCasesAreSeededByTheWalkTheOthersFallBack) {
  const KernelFamily& family = *find_family("spmv");
  const ParameterSpace space = family.space({});
  const std::string data = std::string(KTUNE_SOURCE_DIR) + "/bench/data/";
  std::vector<GroundTruthCase> cases = load_ground_truth(data + "spmv_ground_truth_h200.json", same_space(space));
  const std::vector<GroundTruthCase> first_model = cases;
  const auto tables = load_prediction_tables(data + "spmv_predictions_h200.json", same_space(space));
  use_predictions(cases, tables, "emulator");
  const auto seeds = saake_seeds(cases, tables, family);

  size_t walked = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const GroundTruthCase& truth = cases[i];
    const OfflineSeed& seed = seeds.at(truth.label());
    EXPECT_TRUE(truth.time_us.count(seed.key)) << truth.label();
    EXPECT_EQ(space.canonical(seed.config), seed.key) << truth.label();
    const auto table = tables.find(truth.label());
    if (table == tables.end()) {
      EXPECT_EQ(truth.model, "first cost model") << truth.label();
      EXPECT_EQ(truth.predicted_us, first_model[i].predicted_us) << truth.label();
      EXPECT_EQ(seed.key, space.canonical(best_predicted(truth, space))) << truth.label();
      EXPECT_TRUE(seed.stop.empty()) << truth.label();
      continue;
    }
    ++walked;
    EXPECT_EQ(truth.model, "emulator") << truth.label();
    for (const auto& [key, row] : table->second.rows) EXPECT_DOUBLE_EQ(truth.predicted_us.at(key), row.time_us);
    EXPECT_FALSE(seed.stop.empty()) << truth.label();  // a walk ran (its start may already be its best)
    // The walk keeps the best prediction it saw, never worse than where it started.
    TableOracle oracle(space, table->second);
    double start_best = std::numeric_limits<double>::infinity();
    for (const Config& s : family.canonical_moves({}).starts)
      if (const auto v = oracle.evaluate(s)) start_best = std::min(start_best, v->time_us);  // none: refused there
    EXPECT_LE(table->second.rows.at(seed.key).time_us, start_best) << truth.label();
  }
  EXPECT_EQ(walked, tables.size());
  EXPECT_GT(walked, 0u);
}

}  // namespace
}  // namespace ktune
