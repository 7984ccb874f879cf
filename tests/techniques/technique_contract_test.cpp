// Every technique honours the contract of search_core.h: it proposes only valid, unmeasured
// configurations; it is deterministic for a seed and an observation sequence; it copes with a
// space of 10^11 nominal points without enumerating it; and it searches (beats random where
// it should).
#include <gtest/gtest.h>

#include <map>

#include <algorithm>
#include <functional>
#include <memory>
#include <set>

#include "search/techniques/differential_evolution.h"
#include "search/techniques/drive.h"
#include "search/techniques/ensemble.h"
#include "search/techniques/model_top_k.h"
#include "search/techniques/nelder_mead.h"
#include "search/techniques/normal_greedy_mutation.h"
#include "search/techniques/pattern_search.h"
#include "search/techniques/random_search.h"
#include "search/techniques/uniform_greedy_mutation.h"
#include "tests/techniques/test_spaces.h"

namespace ktune {
namespace {

using Factory = std::function<std::unique_ptr<Technique>()>;

const std::vector<std::pair<std::string, Factory>>& factories() {
  static const std::vector<std::pair<std::string, Factory>> all = {
      {"random", [] { return std::make_unique<RandomSearch>(); }},
      {"uniform_greedy_mutation", [] { return std::make_unique<UniformGreedyMutation>(); }},
      {"normal_greedy_mutation", [] { return std::make_unique<NormalGreedyMutation>(); }},
      {"nelder_mead", [] { return std::make_unique<NelderMead>(); }},
      {"differential_evolution", [] { return std::make_unique<DifferentialEvolution>(); }},
      {"pattern_search", [] { return std::make_unique<PatternSearch>(); }},
      {"model_top_k",
       [] {
         // One model for both test spaces: the objective of whichever space the config is of.
         return std::make_unique<ModelTopK>(
             [](const Config& c) { return c.count("x") ? testing::huge_objective(c) : testing::toy_objective(c); },
             std::vector<Config>{}, 64);
       }},
      {"ensemble", [] { return make_ensemble({}); }},
  };
  return all;
}

struct Trace {
  std::vector<std::string> keys;
  double best = 0;
};

// Proposes up to `budget` configurations, checking each before "measuring" it.
Trace run(Technique& t, const ParameterSpace& space, const MeasureFn& measure, uint64_t seed, size_t budget) {
  ResultsStore results(space);
  Rng rng(seed);
  Trace out;
  for (size_t i = 0; i < budget; ++i) {
    const auto c = t.propose(results, rng);
    if (!c) break;
    EXPECT_TRUE(space.valid(*c)) << t.name() << " proposed " << space.canonical(*c) << ": " << space.violation(*c);
    EXPECT_FALSE(results.seen(*c)) << t.name() << " repeated " << space.canonical(*c);
    results.record(*c, measure(*c), t.proposer());
    t.observe(results.history().back());
    out.keys.push_back(results.history().back().key);
  }
  out.best = results.best() ? results.best()->time_us : 0;
  return out;
}

TEST(Techniques, ValidUnseenAndDeterministicOnAHugeSpace) {
  const ParameterSpace space = testing::huge_space();
  for (const auto& [name, make] : factories()) {
    auto a = make(), b = make(), c = make();
    const Trace first = run(*a, space, testing::huge_objective, 11, 150);
    EXPECT_EQ(first.keys.size(), 150u) << name << " ran dry on a space of 10^11 points";
    EXPECT_EQ(run(*b, space, testing::huge_objective, 11, 150).keys, first.keys) << name;
    EXPECT_NE(run(*c, space, testing::huge_objective, 12, 150).keys, first.keys) << name;
  }
}

TEST(Techniques, NeverRepeatOrBreakConstraintsOnASmallSpaceUntilExhausted) {
  const ParameterSpace space = testing::toy_space();
  const size_t valid = space.enumerate().size();
  for (const auto& [name, make] : factories()) {
    auto t = make();
    const Trace r = run(*t, space, testing::toy_objective, 3, 10 * valid);
    EXPECT_LE(r.keys.size(), valid) << name;
    std::set<std::string> distinct(r.keys.begin(), r.keys.end());
    EXPECT_EQ(distinct.size(), r.keys.size()) << name;
  }
  // Random and the ensemble (which has a random arm) reach every configuration.
  RandomSearch random;
  EXPECT_EQ(run(random, space, testing::toy_objective, 3, 10 * valid).keys.size(), valid);
  auto ensemble = make_ensemble({});
  EXPECT_EQ(run(*ensemble, space, testing::toy_objective, 3, 10 * valid).keys.size(), valid);
}

// On a smooth bowl the local techniques must get closer to the minimum than random search with
// the same number of measurements (summed over seeds, so one lucky draw does not decide).
TEST(Techniques, LocalTechniquesBeatRandomOnASmoothBowl) {
  const ParameterSpace space = testing::huge_space();
  auto excess = [&](const Factory& make) {
    double sum = 0;
    for (uint64_t seed = 0; seed < 5; ++seed) {
      auto t = make();
      sum += run(*t, space, testing::huge_objective, seed, 300).best - 100.0;
    }
    return sum;
  };
  const double random = excess(factories()[0].second);
  for (const auto& [name, make] : factories()) {
    if (name == "random" || name == "differential_evolution") continue;  // DE spends 30 on its random population
    EXPECT_LT(excess(make), random) << name;
  }
}

TEST(ModelTopK, FollowsThePredictedOrderOnASmallSpace) {
  const ParameterSpace space = testing::toy_space();
  ModelTopK model(testing::toy_objective);
  const Trace r = run(model, space, testing::toy_objective, 5, 1000);
  std::vector<std::pair<double, std::string>> expected;
  for (const auto& c : space.enumerate()) expected.push_back({testing::toy_objective(c), space.canonical(c)});
  std::sort(expected.begin(), expected.end());
  ASSERT_EQ(r.keys.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(r.keys[i], expected[i].second) << i;
}

// A ranking at hand goes first, in its order; the model predicts nothing until it is spent,
// then orders the rest, on a small space and on a huge one.
TEST(ModelTopK, PredictsOnlyOnceTheRankingAtHandIsSpent) {
  for (const ParameterSpace& space : {testing::toy_space(), testing::huge_space()}) {
    SpaceRng srng(3);
    const std::vector<Config> at_hand = space.sample(srng, 3);
    ASSERT_EQ(at_hand.size(), 3u);
    int predictions = 0;
    ModelTopK model(
        [&](const Config& c) {
          ++predictions;
          return c.count("x") ? testing::huge_objective(c) : testing::toy_objective(c);
        },
        at_hand, 64);
    const Trace first = run(model, space, [](const Config&) { return 1.0; }, 5, 3);
    ASSERT_EQ(first.keys.size(), 3u);
    for (size_t i = 0; i < 3; ++i) EXPECT_EQ(first.keys[i], space.canonical(at_hand[i])) << i;
    EXPECT_EQ(predictions, 0) << "nothing is predicted while the ranking at hand lasts";
    Rng rng(5);
    ASSERT_TRUE(model.propose(ResultsStore(space), rng));
    EXPECT_GT(predictions, 0) << "once it is spent, the model ranks the rest";
  }
}

TEST(ModelTopK, RanksASampledPoolOnAHugeSpace) {
  const ParameterSpace space = testing::huge_space();
  ModelTopK model(testing::huge_objective, {}, 512);
  RandomSearch random;
  // The best of a pool of 512 beats single random draws by far.
  EXPECT_LT(run(model, space, testing::huge_objective, 1, 10).best, run(random, space, testing::huge_objective, 1, 10).best);
}

}  // namespace
}  // namespace ktune
