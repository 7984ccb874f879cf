#include "search/techniques/staged.h"

namespace ktune {

std::optional<Config> Staged::propose(const ResultsStore& results, Rng& rng) {
  for (; current_ < stages_.size(); ++current_, made_ = 0) {
    Stage& stage = stages_[current_];
    const bool last = current_ + 1 == stages_.size();
    if (!last && made_ >= stage.proposals) continue;
    auto c = stage.technique->propose(results, rng);
    if (c) {
      ++made_;
      last_proposer_ = stage.technique->proposer();
      return c;
    }
    if (last) return std::nullopt;  // the last stage may have more later
  }
  return std::nullopt;
}

}  // namespace ktune
