#pragma once
// Proposes configurations in the model's order, skipping what was already measured: the
// policy before the ensemble, and the fallback when a space has no better technique.
#include "search/techniques/search_core.h"

namespace ktune {

class ModelOrderTechnique : public Technique {
 public:
  explicit ModelOrderTechnique(std::vector<Config> ranked) : ranked_(std::move(ranked)) {}
  std::string name() const override { return "model-order"; }
  std::optional<Config> propose(const ResultsStore& results, Rng& rng) override;

 private:
  std::vector<Config> ranked_;
  size_t next_ = 0;  // everything before it was proposed or seen
};

}  // namespace ktune
