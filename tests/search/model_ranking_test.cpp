#include "search/model_ranking.h"

#include <gtest/gtest.h>

#include <set>

#include "kernels/parameter_space.h"

namespace ktune {
namespace {

// a in 0..7, b in 0..7: a first model that prices every configuration alike but those of b = 7.
struct TiedSpace {
  ParameterSpace space;
  std::vector<CandidateOutcome> ranked;
  TiedSpace() {
    space.params = {Parameter::int_range("a", 0, 7), Parameter::int_range("b", 0, 7)};
    for (const Config& c : space.enumerate()) {
      CandidateOutcome o;
      o.config = c;
      o.config_key = space.canonical(c);
      o.prediction.time_us = c.at("b") == 7 ? 200.0 : 100.0 * (1 + 0.0005 * static_cast<double>(c.at("a")));
      ranked.push_back(o);
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& x, const auto& y) {
      return x.prediction.time_us < y.prediction.time_us;
    });
  }
};

TEST(ModelTies, ATieIsSpreadAndTheOrderBetweenRunsKept) {
  TiedSpace t;
  // Sorted by prediction, enumeration order keeps a = 0 for the first seven places.
  std::set<int64_t> a_before;
  for (size_t i = 0; i < 8; ++i) a_before.insert(t.ranked[i].config.at("a"));
  ASSERT_EQ(a_before.size(), 2u);

  spread_model_ties(t.ranked, 1);
  std::set<int64_t> a_after, b_after;
  for (size_t i = 0; i < 8; ++i) a_after.insert(t.ranked[i].config.at("a")), b_after.insert(t.ranked[i].config.at("b"));
  EXPECT_GE(a_after.size(), 4u);
  EXPECT_GE(b_after.size(), 4u);
  // Within 0.5% of each other, the 56 configurations with b < 7 are one tie; b = 7 stays behind.
  for (size_t i = 0; i < t.ranked.size(); ++i) EXPECT_EQ(t.ranked[i].config.at("b") == 7, i >= 56) << i;
}

TEST(ModelTies, TheSameSeedGivesTheSameOrderAndAnotherSeedAnother) {
  TiedSpace x, y, z;
  spread_model_ties(x.ranked, 7);
  spread_model_ties(y.ranked, 7);
  spread_model_ties(z.ranked, 8);
  std::vector<std::string> kx, ky, kz;
  for (size_t i = 0; i < x.ranked.size(); ++i)
    kx.push_back(x.ranked[i].config_key), ky.push_back(y.ranked[i].config_key), kz.push_back(z.ranked[i].config_key);
  EXPECT_EQ(kx, ky);
  EXPECT_NE(kx, kz);
}

TEST(ModelTies, PredictionsApartStayInTheirOrder) {
  std::vector<CandidateOutcome> ranked(3);
  const double times[] = {10.0, 11.0, 12.0};
  for (size_t i = 0; i < 3; ++i) ranked[i].config_key = "k" + std::to_string(2 - i), ranked[i].prediction.time_us = times[i];
  spread_model_ties(ranked, 3);
  EXPECT_EQ(ranked[0].config_key, "k2");
  EXPECT_EQ(ranked[2].config_key, "k0");
}

TEST(EmulatorFirst, EmulatedWinnersLeadAndEmulatedLosersTrail) {
  TiedSpace t;  // first model: a then b ascending (no spreading here)
  // The emulator took four configurations: (a=5, b=5) fastest, (a=6, b=0) within twice it,
  // (a=0, b=0) and (a=0, b=1) ten times slower.
  const auto emulated = [](const Config& c) -> std::optional<double> {
    const int64_t a = c.at("a"), b = c.at("b");
    if (a == 5 && b == 5) return 10.0;
    if (a == 6 && b == 0) return 15.0;
    if (a == 0 && b <= 1) return 100.0 + static_cast<double>(b);
    return std::nullopt;
  };
  const std::vector<Config> order = emulator_first(t.ranked, emulated);
  ASSERT_EQ(order.size(), t.ranked.size());
  EXPECT_EQ(order[0], (Config{{"a", 5}, {"b", 5}}));
  EXPECT_EQ(order[1], (Config{{"a", 6}, {"b", 0}}));
  EXPECT_EQ(order[2], (Config{{"a", 0}, {"b", 2}}));  // the first model's first un-emulated pick
  EXPECT_EQ(order[order.size() - 2], (Config{{"a", 0}, {"b", 0}}));
  EXPECT_EQ(order.back(), (Config{{"a", 0}, {"b", 1}}));
}

}  // namespace
}  // namespace ktune
