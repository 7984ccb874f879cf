#pragma once
// Runs techniques one after another: each stage proposes until it has made `proposals`
// proposals or has nothing to offer, then the next stage takes over; the last stage runs for
// good. Seed first, then the model's top k, then the bandit is a three-stage search. Every
// stage observes every result from the start, so a later stage knows what earlier ones found.
#include <cstddef>
#include <limits>
#include <memory>
#include <vector>

#include "search/techniques/search_core.h"

namespace ktune {

struct Stage {
  std::unique_ptr<Technique> technique;
  size_t proposals = std::numeric_limits<size_t>::max();
};

class Staged : public Technique {
 public:
  explicit Staged(std::vector<Stage> stages) : stages_(std::move(stages)) {}
  std::string name() const override { return "staged"; }
  std::optional<Config> propose(const ResultsStore& results, Rng& rng) override;
  void observe(const Observation& o) override {
    for (auto& s : stages_) s.technique->observe(o);
  }
  std::string proposer() const override { return last_proposer_; }

 private:
  std::vector<Stage> stages_;
  size_t current_ = 0;
  size_t made_ = 0;  // proposals of the current stage
  std::string last_proposer_;
};

}  // namespace ktune
