#include "search/model_ranking.h"

#include <algorithm>
#include <string>

namespace ktune {

namespace {

// FNV-1a over the key, then the seed mixed in (splitmix64's finaliser): the same on every
// build, so that a tune repeats.
uint64_t key_hash(const std::string& key, uint64_t seed) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : key) h = (h ^ c) * 1099511628211ull;
  h ^= seed + 0x9e3779b97f4a7c15ull;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

}  // namespace

void spread_model_ties(std::vector<CandidateOutcome>& ranked, uint64_t seed) {
  for (size_t start = 0; start < ranked.size();) {
    const double limit = ranked[start].prediction.time_us * (1 + kModelTieFraction);
    size_t end = start + 1;
    while (end < ranked.size() && ranked[end].prediction.time_us <= limit) ++end;
    if (end - start > 1) {
      std::vector<std::pair<uint64_t, CandidateOutcome>> run;
      for (size_t i = start; i < end; ++i) run.emplace_back(key_hash(ranked[i].config_key, seed), std::move(ranked[i]));
      std::stable_sort(run.begin(), run.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      for (size_t i = start; i < end; ++i) ranked[i] = std::move(run[i - start].second);
    }
    start = end;
  }
}

std::vector<Config> emulator_first(const std::vector<CandidateOutcome>& ranked,
                                   const std::function<std::optional<double>(const Config&)>& emulated_us) {
  std::vector<std::pair<double, Config>> emulated;
  std::vector<Config> rest;
  for (const CandidateOutcome& c : ranked) {
    if (const std::optional<double> us = emulated_us(c.config))
      emulated.emplace_back(*us, c.config);
    else
      rest.push_back(c.config);
  }
  std::stable_sort(emulated.begin(), emulated.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Config> out, slow;
  for (auto& [us, c] : emulated) (us <= emulated.front().first * kEmulatedSlowFactor ? out : slow).push_back(std::move(c));
  out.insert(out.end(), std::make_move_iterator(rest.begin()), std::make_move_iterator(rest.end()));
  out.insert(out.end(), std::make_move_iterator(slow.begin()), std::make_move_iterator(slow.end()));
  return out;
}

}  // namespace ktune
