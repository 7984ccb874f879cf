#pragma once
// Proposes unmeasured configurations in the order of a model's ranking (predicted time,
// fastest first; ties by canonical form, so the order does not depend on the seed). The model
// is injected: the first cost model, the emulator, or in the offline evaluation a recorded
// prediction. A small space is ranked whole, once; a space too large to enumerate is ranked
// by sampling `pool` random valid configurations per proposal.
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

#include "search/techniques/search_core.h"

namespace ktune {

using PredictFn = std::function<double(const Config&)>;  // predicted microseconds

class ModelTopK : public Technique {
 public:
  explicit ModelTopK(PredictFn predict, size_t pool = 4096) : predict_(std::move(predict)), pool_(pool) {}
  std::string name() const override { return "model_top_k"; }
  std::optional<Config> propose(const ResultsStore& results, Rng& rng) override;

 private:
  PredictFn predict_;
  size_t pool_;
  std::vector<std::pair<std::string, Config>> ranked_;  // the whole small space, best predicted first
  bool ranked_done_ = false;
};

}  // namespace ktune
