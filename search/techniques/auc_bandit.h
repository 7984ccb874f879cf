#pragma once
// OpenTuner's AUCBanditMetaTechnique (bandittechniques.py), over the one shared ResultsStore.
// Each proposal asks the techniques in order of score, best first, and takes the first that
// has something to offer (a technique that returns nullopt is skipped, as in OpenTuner's
// MetaSearchTechnique). A technique's score is
//   exploitation + C * exploration,
//   exploitation = area under the curve of its "found a new global best" history over the
//                  last `window` results of the whole ensemble: its k-th use in the window
//                  adds k when it found a new best; normalised by 1 + 2 + ... + uses, so a
//                  technique whose recent uses found bests scores near 1;
//   exploration  = sqrt(2 log2(results in the window) / its uses in the window), infinite
//                  for a technique not used in the window (so each is tried once early);
// with OpenTuner's defaults C = 0.05 and window = 500. Ties are broken by a shuffle drawn from
// the search's generator, so the order is deterministic for a seed and observation sequence.
// Credit goes to the technique that proposed a configuration, matched by its canonical key
// when its result is observed; results proposed elsewhere (a seed) move the global best only.
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include "search/techniques/search_core.h"

namespace ktune {

class AucBandit : public Technique {
 public:
  struct Options {
    double exploration = 0.05;  // OpenTuner's C
    size_t window = 500;
  };

  explicit AucBandit(std::vector<std::unique_ptr<Technique>> techniques, Options options);
  explicit AucBandit(std::vector<std::unique_ptr<Technique>> techniques)
      : AucBandit(std::move(techniques), Options{}) {}

  std::string name() const override { return "auc_bandit"; }
  std::optional<Config> propose(const ResultsStore& results, Rng& rng) override;
  void observe(const Observation& o) override;
  std::string proposer() const override { return last_proposer_; }

  size_t size() const { return techniques_.size(); }
  const Technique& technique(size_t i) const { return *techniques_[i]; }
  double exploitation(size_t i) const;
  double exploration(size_t i) const;
  double score(size_t i) const { return exploitation(i) + options_.exploration * exploration(i); }
  size_t uses(size_t i) const { return uses_[i]; }

 private:
  void push(size_t technique, bool new_best);

  std::vector<std::unique_ptr<Technique>> techniques_;
  Options options_;
  std::deque<std::pair<size_t, bool>> window_;  // (technique, found a new global best)
  std::vector<size_t> uses_;       // uses in the window
  std::vector<double> auc_sum_;    // sum of the positions of its new bests in the window
  std::vector<size_t> auc_decay_;  // its new bests in the window
  std::unordered_map<std::string, size_t> pending_;  // key proposed -> technique
  double best_us_;
  std::string last_proposer_;
};

}  // namespace ktune
