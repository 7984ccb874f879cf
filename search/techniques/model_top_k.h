#pragma once
// Proposes unmeasured configurations in the order of a model's ranking (predicted time,
// fastest first; ties by canonical form, so the order does not depend on the seed). The model
// is injected: the first cost model, the emulator, or in the offline evaluation a recorded
// prediction. A small space is ranked whole, once; a space too large to enumerate is ranked
// by sampling `pool` random valid configurations per proposal. `known` (optional) answers the
// configurations whose rank is already at hand (a tune's first-model ranking of its sample):
// in a small space they go first, and the model predicts the others only once all of those
// were seen; a graph's prediction walks the graph, so predicting a whole space of 10^4
// configurations for a search of a dozen measurements took a minute.
#include <cstddef>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "search/techniques/search_core.h"

namespace ktune {

using PredictFn = std::function<double(const Config&)>;  // predicted microseconds
using KnownRankFn = std::function<std::optional<double>(const Config&)>;  // nothing: not at hand

class ModelTopK : public Technique {
 public:
  explicit ModelTopK(PredictFn predict, KnownRankFn known = {}, size_t pool = 4096)
      : predict_(std::move(predict)), known_(std::move(known)), pool_(pool) {}
  std::string name() const override { return "model_top_k"; }
  std::optional<Config> propose(const ResultsStore& results, Rng& rng) override;

 private:
  PredictFn predict_;
  KnownRankFn known_;
  size_t pool_;
  std::vector<std::pair<std::string, Config>> ranked_;  // the small space's ranked part, best first
  std::vector<std::pair<std::string, Config>> unranked_;  // the rest, predicted when ranked_ runs out
  bool ranked_done_ = false;
};

}  // namespace ktune
