// The AUC bandit as OpenTuner defines it: credit is the area under the curve of "found a new
// global best" over a sliding window, plus C * sqrt(2 log2 |window| / uses); techniques with
// nothing to offer are skipped; the whole ensemble is deterministic and replays.
#include "search/techniques/auc_bandit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <map>

#include "search/techniques/drive.h"
#include "search/techniques/ensemble.h"
#include "search/techniques/random_search.h"
#include "search/techniques/seed_technique.h"
#include "search/techniques/staged.h"
#include "tests/techniques/test_spaces.h"

namespace ktune {
namespace {

// Proposes the unmeasured toy configurations in a fixed order, or nothing when `silent`.
class Scripted : public Technique {
 public:
  Scripted(std::string name, bool reverse, bool silent = false) : name_(std::move(name)), reverse_(reverse), silent_(silent) {}
  std::string name() const override { return name_; }
  std::optional<Config> propose(const ResultsStore& results, Rng&) override {
    if (silent_) return std::nullopt;
    std::vector<Config> all = *results.valid_configs();
    if (reverse_) std::reverse(all.begin(), all.end());
    for (const auto& c : all)
      if (!results.seen(c)) return c;
    return std::nullopt;
  }

 private:
  std::string name_;
  bool reverse_, silent_;
};

// The definition, computed from scratch over a window of (technique, new best) pairs.
double slow_auc(const std::deque<std::pair<std::string, bool>>& window, const std::string& name) {
  double score = 0, pos = 0;
  for (const auto& [t, best] : window) {
    if (t != name) continue;
    pos += 1;
    if (best) score += pos;
  }
  return pos ? score * 2 / (pos * (pos + 1)) : 0;
}

TEST(AucBandit, CreditIsTheWindowedAreaUnderTheNewBestCurve) {
  const ParameterSpace space = testing::toy_space();
  std::vector<std::unique_ptr<Technique>> arms;
  arms.push_back(std::make_unique<Scripted>("forward", false));
  arms.push_back(std::make_unique<Scripted>("backward", true));
  arms.push_back(std::make_unique<RandomSearch>());
  AucBandit bandit(std::move(arms), {0.05, 7});
  ResultsStore results(space);
  Rng rng(4);
  std::deque<std::pair<std::string, bool>> window;
  double best = INFINITY;
  // Times fall as measurements go on for a while, then rise: new bests early, none later.
  for (int i = 0; i < 60; ++i) {
    const auto c = bandit.propose(results, rng);
    ASSERT_TRUE(c);
    const double t = std::abs(i - 25.0) + 0.001 * testing::toy_objective(*c);
    results.record(*c, t, bandit.proposer());
    bandit.observe(results.history().back());
    window.push_back({bandit.proposer(), t < best});
    best = std::min(best, t);
    if (window.size() > 7) window.pop_front();
    std::map<std::string, double> uses;
    for (const auto& [name, b] : window) uses[name] += 1;
    for (size_t k = 0; k < bandit.size(); ++k) {
      const std::string name = bandit.technique(k).name();
      EXPECT_NEAR(bandit.exploitation(k), slow_auc(window, name), 1e-12) << i << " " << name;
      EXPECT_EQ(bandit.uses(k), uses[name]);
      if (uses[name] > 0) {
        EXPECT_NEAR(bandit.exploration(k), std::sqrt(2 * std::log2(double(window.size())) / uses[name]), 1e-12);
      } else {
        EXPECT_TRUE(std::isinf(bandit.exploration(k)));
      }
    }
  }
}

TEST(AucBandit, TriesEveryArmOnceThenFavoursTheOneFindingBests) {
  const ParameterSpace space = testing::toy_space();
  std::vector<std::unique_ptr<Technique>> arms;
  arms.push_back(std::make_unique<Scripted>("forward", false));
  arms.push_back(std::make_unique<Scripted>("backward", true));
  arms.push_back(std::make_unique<Scripted>("silent", false, true));
  AucBandit bandit(std::move(arms));
  ResultsStore results(space);
  Rng rng(9);
  // "forward" walks toward ever faster configurations (time falls with the enumeration
  // order); "backward" walks the other way and never finds a new best after its first.
  std::map<std::string, double> rank;
  const auto all = space.enumerate();
  for (size_t i = 0; i < all.size(); ++i) rank[space.canonical(all[i])] = 1000.0 - double(i) * (i < 40 ? 1 : -1);
  const MeasureFn measure = [&](const Config& c) { return rank.at(space.canonical(c)); };
  std::map<std::string, int> used;
  for (int i = 0; i < 30; ++i) {
    const auto c = bandit.propose(results, rng);
    ASSERT_TRUE(c);
    results.record(*c, measure(*c), bandit.proposer());
    bandit.observe(results.history().back());
    ++used[bandit.proposer()];
    if (i == 1) {
      EXPECT_EQ(used.size(), 2u);  // both arms with proposals tried first
    }
  }
  EXPECT_EQ(used.count("silent"), 0u);  // skipped: it never had anything to offer
  EXPECT_GT(used["forward"], 20);
  EXPECT_GT(bandit.score(0), bandit.score(1));
}

TEST(AucBandit, PassesOverATechniqueThatBreaksItsContract) {
  // A broken technique that proposes the same configuration forever.
  class Stuck : public Technique {
   public:
    std::string name() const override { return "stuck"; }
    std::optional<Config> propose(const ResultsStore& r, Rng&) override { return r.valid_configs()->front(); }
  };
  const ParameterSpace space = testing::toy_space();
  std::vector<std::unique_ptr<Technique>> arms;
  arms.push_back(std::make_unique<Stuck>());
  arms.push_back(std::make_unique<RandomSearch>());
  AucBandit bandit(std::move(arms));
  ResultsStore results(space);
  Rng rng(1);
  EXPECT_EQ(drive(bandit, results, rng, testing::toy_objective, 1000), space.enumerate().size());
}

TEST(Ensemble, SameSeedSameSequenceAndAResumedTuneReplaysWithoutMeasuring) {
  const ParameterSpace space = testing::huge_space();
  auto sequence = [&](Technique& t, ResultsStore& results, Rng& rng, const MeasureFn& m, size_t n) {
    drive(t, results, rng, m, n);
    std::vector<std::string> keys;
    for (const auto& o : results.history()) keys.push_back(o.key + "@" + o.technique);
    return keys;
  };
  auto whole = make_ensemble({});
  ResultsStore whole_results(space);
  Rng whole_rng(21);
  const auto uninterrupted = sequence(*whole, whole_results, whole_rng, testing::huge_objective, 120);
  ASSERT_EQ(uninterrupted.size(), 120u);

  auto again = make_ensemble({});
  ResultsStore again_results(space);
  Rng again_rng(21);
  EXPECT_EQ(sequence(*again, again_results, again_rng, testing::huge_objective, 120), uninterrupted);

  // A tune stopped after 50 measurements restarts: same seed, fresh techniques, and a measure
  // that answers from the stored history first; only the configurations after it are measured.
  std::map<std::string, double> stored;
  for (size_t i = 0; i < 50; ++i) stored[whole_results.history()[i].key] = whole_results.history()[i].time_us;
  size_t gpu_calls = 0;
  const MeasureFn resume = [&](const Config& c) {
    const auto it = stored.find(space.canonical(c));
    if (it != stored.end()) return it->second;
    ++gpu_calls;
    return testing::huge_objective(c);
  };
  auto resumed = make_ensemble({});
  ResultsStore resumed_results(space);
  Rng resumed_rng(21);
  EXPECT_EQ(sequence(*resumed, resumed_results, resumed_rng, resume, 120), uninterrupted);
  EXPECT_EQ(gpu_calls, 70u);
}

TEST(Ensemble, SeedIsMeasuredFirstThenTheModelsTopK) {
  const ParameterSpace space = testing::toy_space();
  const Config seed = {{"block", 512}, {"unroll", 1}, {"mode", 0}, {"flag", 0}};
  EnsembleOptions options;
  options.seed = seed;
  options.model = testing::toy_objective;
  options.model_first = 3;
  auto t = make_ensemble(options);
  ResultsStore results(space);
  Rng rng(2);
  drive(*t, results, rng, testing::toy_objective, 10);
  const auto& h = results.history();
  ASSERT_EQ(h.size(), 10u);
  EXPECT_EQ(h[0].config, seed);
  EXPECT_EQ(h[0].technique, "seed");
  std::vector<std::pair<double, std::string>> ranked;
  for (const auto& c : space.enumerate()) ranked.push_back({testing::toy_objective(c), space.canonical(c)});
  std::sort(ranked.begin(), ranked.end());
  for (size_t i = 1; i <= 3; ++i) {
    EXPECT_EQ(h[i].key, ranked[i - 1].second);
    EXPECT_EQ(h[i].technique, "model_top_k");
  }
  EXPECT_NE(h[4].technique, "seed");
}

}  // namespace
}  // namespace ktune
