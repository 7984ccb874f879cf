// The tuner's technique: the ensemble seeded with the walk's pick, then the model's ranking
// (the order the tuner gives it, not the raw predictions), deterministic for a seed.
#include "search/technique_factory.h"

#include <gtest/gtest.h>

namespace ktune {
namespace {

ParameterSpace line_space() {
  ParameterSpace s;
  s.params = {Parameter::int_range("x", 0, 15)};
  return s;
}

std::vector<std::string> propose_all(const ParameterSpace& space, const TechniqueContext& context, uint64_t seed,
                                     size_t n) {
  std::unique_ptr<Technique> t = make_search_technique(context);
  ResultsStore results(space);
  Rng rng(seed);
  std::vector<std::string> keys;
  for (size_t i = 0; i < n; ++i) {
    std::optional<Config> c = t->propose(results, rng);
    if (!c) break;
    keys.push_back(space.canonical(*c));
    results.record(*c, 1.0 + static_cast<double>(c->at("x")), t->proposer());
    t->observe(results.history().back());
  }
  return keys;
}

TEST(TechniqueFactory, SeedThenTheRankingThenTheBandit) {
  const ParameterSpace space = line_space();
  TechniqueContext context;
  // A ranking against the predictions: the ranking must win.
  for (int64_t x : {9, 3, 12, 0}) context.model_ranked.push_back({{"x", x}});
  context.predict_us = [](const Config& c) -> std::optional<double> { return static_cast<double>(c.at("x")); };
  context.seed = Config{{"x", 5}};
  context.model_first = 3;
  const std::vector<std::string> keys = propose_all(space, context, 1, 16);
  ASSERT_GE(keys.size(), 4u);
  EXPECT_EQ(keys[0], space.canonical({{"x", 5}}));
  EXPECT_EQ(keys[1], space.canonical({{"x", 9}}));
  EXPECT_EQ(keys[2], space.canonical({{"x", 3}}));
  EXPECT_EQ(keys[3], space.canonical({{"x", 12}}));
  EXPECT_EQ(keys.size(), 16u) << "the bandit goes on until the space is measured";
  EXPECT_EQ(keys, propose_all(space, context, 1, 16)) << "same seed, same proposals";
}

}  // namespace
}  // namespace ktune
