#pragma once
// A SAAKE oracle (saake_oracle.h) answered from a recorded table of a model's predictions,
// e.g. bench/data/spmv_predictions_h200.json written by bench/emulator_accuracy
// --predictions-out: one row per configuration with the predicted time, occupancy,
// bottleneck resource and kind, and per-resource utilisation. It lets the offline
// evaluation run the real walk without the matrices or the emulator.
//
// What a table cannot answer, and the simplifications taken instead:
// - transactions: utilisation x predicted time per resource (busy time, proportional to the
//   transactions at a fixed cost per transaction: enough to rank moves for one resource);
// - bottleneck_at a hypothetical occupancy: the table holds no sensitivity analysis at other
//   occupancies, so it is derived from the recorded levels of related configurations: the
//   majority bottleneck of the neighbours (configurations differing in exactly one parameter,
//   e.g. the same kernel with another block size) recorded at that occupancy. With no such
//   neighbour, the configuration's own bottleneck (then the throughput move may give up
//   occupancy down to the lowest level). A neighbour differs in more than occupancy, so this
//   is evidence, not the emulator's answer;
// - lower_occupancies: the distinct occupancies recorded in the table below the
//   configuration's own, largest first.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kernels/parameter_space.h"
#include "search/saake_oracle.h"
#include "search/techniques/offline_eval.h"

namespace ktune {

struct PredictionRow {
  double time_us = 0;
  double occupancy = 0;
  WalkBottleneck bottleneck;
  std::map<std::string, double> utilisation;
  std::string plan;  // kernels/plan_identity.h; empty in files that record none
};

struct PredictionTable {
  std::string workload;
  std::string problem;  // JSON text; empty when the file records none
  std::string dtype;
  std::map<std::string, PredictionRow> rows;  // canonical configuration key -> row
  std::string label() const { return case_label(workload, problem, dtype); }
};

// Every case's table of a predictions file, by label (case_label). Every config string must be
// a valid configuration of its case's space (throws otherwise).
std::map<std::string, PredictionTable> load_prediction_tables(const std::string& path, const CaseSpace& space_of);

class TableOracle : public SaakeOracle {
 public:
  TableOracle(const ParameterSpace& space, PredictionTable table);
  // Nothing for a configuration the table has no row for (it was never predicted: a format the
  // workload refuses); the other queries throw std::out_of_range naming it and the table.
  std::optional<OracleView> evaluate(const Config& config) override;
  std::optional<WalkBottleneck> bottleneck_at(const Config& config, double occupancy) override;
  std::vector<double> lower_occupancies(const Config& config) override;

 private:
  const PredictionRow& row(const Config& config) const;

  const ParameterSpace& space_;
  PredictionTable table_;
  std::map<std::string, Config> configs_;  // canonical key -> configuration, to find neighbours
};

}  // namespace ktune
