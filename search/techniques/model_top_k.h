#pragma once
// Proposes unmeasured configurations in the order of a model's ranking (predicted time,
// fastest first; ties by canonical form, so the order does not depend on the seed). The model
// is injected: the first cost model, the emulator, or in the offline evaluation a recorded
// prediction. A small space is ranked whole, once; a space too large to enumerate is ranked
// by sampling `pool` random valid configurations per proposal. `ranked_first` (optional) is a
// ranking already at hand (a tune's first-model ranking of its sample): its configurations
// go first, in its order, and the model predicts nothing until they are spent. A graph's
// prediction walks the graph: predicting a pool of 4096 for each proposal cost a measured BFS
// tune on R-MAT 20 four minutes.
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

#include "search/techniques/search_core.h"

namespace ktune {

using PredictFn = std::function<double(const Config&)>;  // predicted microseconds

class ModelTopK : public Technique {
 public:
  explicit ModelTopK(PredictFn predict, std::vector<Config> ranked_first = {}, size_t pool = 4096)
      : predict_(std::move(predict)), ranked_first_(std::move(ranked_first)), pool_(pool) {}
  std::string name() const override { return "model_top_k"; }
  std::optional<Config> propose(const ResultsStore& results, Rng& rng) override;

 private:
  PredictFn predict_;
  std::vector<Config> ranked_first_;
  size_t next_first_ = 0;  // ranked_first_ before this index has been proposed or seen
  size_t pool_;
  std::vector<std::pair<std::string, Config>> ranked_;  // the whole small space, best predicted first
  bool ranked_done_ = false;
};

}  // namespace ktune
