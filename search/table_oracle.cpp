#include "search/table_oracle.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

namespace ktune {
namespace {

// Occupancies are multiples of 1/64 warps; closer than this they are one level.
constexpr double kOccupancyEpsilon = 1e-9;

WalkBottleneckKind parse_kind(const std::string& kind, const std::string& where) {
  if (kind == "latency") return WalkBottleneckKind::Latency;
  if (kind == "throughput") return WalkBottleneckKind::Throughput;
  throw std::runtime_error(where + ": bottleneck kind \"" + kind + "\" is neither latency nor throughput");
}

size_t differing_parameters(const Config& a, const Config& b) {
  size_t n = 0;
  for (const auto& [name, value] : a) {
    const auto it = b.find(name);
    n += it == b.end() || it->second != value;
  }
  return n;
}

}  // namespace

std::map<std::string, PredictionTable> load_prediction_tables(const std::string& path, const CaseSpace& space_of) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read predictions " + path);
  const nlohmann::json j = nlohmann::json::parse(in);

  std::map<std::string, PredictionTable> out;
  for (const auto& w : j.at("workloads")) {
    PredictionTable t;
    t.workload = w.at("workload").get<std::string>();
    t.problem = w.value("problem", nlohmann::json()).empty() ? "" : w["problem"].dump();  // null or {}: none
    t.dtype = w.at("dtype").get<std::string>();
    const ParameterSpace space = space_of(t.problem, t.dtype);
    std::set<std::string> valid;
    for (const auto& c : space.enumerate()) valid.insert(space.canonical(c));
    for (const auto& c : w.at("configs")) {
      const std::string key = c.at("config").get<std::string>();
      const std::string where = path + " " + t.label() + " " + key;
      if (!valid.count(key)) throw std::runtime_error(where + ": not a valid configuration");
      PredictionRow r;
      r.time_us = c.at("predicted_us").get<double>();
      r.occupancy = c.at("occupancy").get<double>();
      r.bottleneck = {c.at("bottleneck").get<std::string>(), parse_kind(c.at("kind").get<std::string>(), where)};
      r.utilisation = c.at("utilisation").get<std::map<std::string, double>>();
      r.plan = c.value("plan", std::string());
      t.rows[key] = std::move(r);
    }
    const std::string label = t.label();
    out[label] = std::move(t);
  }
  return out;
}

TableOracle::TableOracle(const ParameterSpace& space, PredictionTable table) : space_(space), table_(std::move(table)) {
  for (const auto& c : space_.enumerate()) configs_[space_.canonical(c)] = c;
}

const PredictionRow& TableOracle::row(const Config& config) const {
  const std::string key = space_.canonical(config);
  const auto it = table_.rows.find(key);
  if (it == table_.rows.end()) throw std::out_of_range("predictions for " + table_.label() + " have no row for " + key);
  return it->second;
}

std::optional<OracleView> TableOracle::evaluate(const Config& config) {
  // A configuration the table has no row for was not predicted (it cannot run on this
  // workload, e.g. a format the matrix refuses): to the walk, that is the edge of the space.
  if (!table_.rows.count(space_.canonical(config))) return std::nullopt;
  const PredictionRow& r = row(config);
  OracleView v;
  v.time_us = r.time_us;
  v.occupancy = r.occupancy;
  v.bottleneck = r.bottleneck;
  v.utilisation = r.utilisation;
  for (const auto& [resource, u] : r.utilisation) v.transactions[resource] = u * r.time_us;
  return v;
}

std::optional<WalkBottleneck> TableOracle::bottleneck_at(const Config& config, double occupancy) {
  // No sensitivity analysis at a hypothetical occupancy in a table; the nearest recorded
  // evidence is a neighbour (one parameter changed) that runs at that occupancy: see the header.
  std::map<std::pair<std::string, int>, int> votes;  // (resource, kind) -> neighbours
  for (const auto& [key, r] : table_.rows) {
    if (std::abs(r.occupancy - occupancy) > kOccupancyEpsilon) continue;
    const auto c = configs_.find(key);
    if (c == configs_.end() || differing_parameters(config, c->second) != 1) continue;
    ++votes[{r.bottleneck.resource, static_cast<int>(r.bottleneck.kind)}];
  }
  if (votes.empty()) return row(config).bottleneck;
  // The majority; ties go to the smaller (resource, kind), so the answer is deterministic.
  auto best = votes.begin();
  for (auto it = votes.begin(); it != votes.end(); ++it)
    if (it->second > best->second) best = it;
  return WalkBottleneck{best->first.first, static_cast<WalkBottleneckKind>(best->first.second)};
}

std::vector<double> TableOracle::lower_occupancies(const Config& config) {
  const double own = row(config).occupancy;
  std::vector<double> levels;  // descending, distinct
  for (const auto& [key, r] : table_.rows) {
    if (r.occupancy >= own - kOccupancyEpsilon) continue;
    levels.push_back(r.occupancy);
  }
  std::sort(levels.rbegin(), levels.rend());
  levels.erase(std::unique(levels.begin(), levels.end(),
                           [](double a, double b) { return a - b < kOccupancyEpsilon; }),
               levels.end());
  return levels;
}

}  // namespace ktune
