#pragma once
// Proposes given configurations once each, in order: the SAAKE walk's result (digest §2.10:
// the model-driven walk's final configuration becomes the ensemble's initial seed) or any
// configuration a client asks to try first. Invalid or already measured ones are skipped.
#include <utility>
#include <vector>

#include "search/techniques/search_core.h"

namespace ktune {

class SeedTechnique : public Technique {
 public:
  explicit SeedTechnique(std::vector<Config> seeds, std::string name = "seed")
      : seeds_(std::move(seeds)), name_(std::move(name)) {}
  std::string name() const override { return name_; }
  std::optional<Config> propose(const ResultsStore& results, Rng&) override {
    for (const auto& c : seeds_)
      if (results.space().valid(c) && !results.seen(c)) return c;
    return std::nullopt;
  }

 private:
  std::vector<Config> seeds_;
  std::string name_;
};

}  // namespace ktune
