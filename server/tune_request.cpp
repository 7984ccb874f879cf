#include "server/tune_request.h"

#include <set>

#include "workload/input_error.h"

namespace ktune {
namespace {

double number_field(const nlohmann::json& j, const char* name, double lo, double hi, double fallback) {
  if (!j.contains(name)) return fallback;
  const nlohmann::json& v = j.at(name);
  if (!v.is_number() || v.get<double>() < lo || v.get<double>() > hi)
    throw InputError(std::string("'") + name + "' must be a number in " + std::to_string(lo) + ".." + std::to_string(hi));
  return v.get<double>();
}

bool bool_field(const nlohmann::json& j, const char* name) {
  if (!j.contains(name)) return false;
  if (!j.at(name).is_boolean()) throw InputError(std::string("'") + name + "' must be true or false");
  return j.at(name).get<bool>();
}

}  // namespace

TuneFields parse_tune_request(const nlohmann::json& r) {
  static const std::set<std::string> known = {"kernel", "dtype",  "problem", "workload",      "budget",
                                             "wait",   "wait_seconds", "hot",     "force", "target_speedup"};
  for (const auto& [key, value] : r.items())
    if (!known.count(key)) throw InputError("unknown field '" + key + "' in the tune request");
  TuneFields t;
  if (!r.contains("kernel") || !r["kernel"].is_string()) throw InputError("'kernel' (a string such as \"spmv\") is required");
  t.family = &family_named(r["kernel"].get<std::string>());
  // Without a dtype, the family's first precision: f32 for the sparse families, i32 for a
  // traversal, whose answers are integers.
  const Precision precision = r.contains("dtype") ? precision_from_json(r["dtype"]) : t.family->precisions().front();
  t.problem = make_problem(*t.family, r.contains("problem") ? r["problem"] : nlohmann::json(), precision);
  // A dense family's workload is its problem's shape (WorkloadResolver::validate refuses one).
  if (!r.contains("workload") && t.family->workload_kind() != WorkloadKind::Dense)
    throw InputError("'workload' is required: {\"upload\"|\"path\"|\"generator\": ...}");
  if (r.contains("workload")) t.workload = r["workload"];
  if (r.contains("budget")) {
    const nlohmann::json& b = r["budget"];
    if (!b.is_object()) throw InputError("'budget' must be an object: {\"measurements\", \"seconds\", \"compiles\"}");
    for (const auto& [key, value] : b.items())
      if (key != "measurements" && key != "seconds" && key != "compiles" && key != "patience")
        throw InputError("unknown field '" + key + "' in budget (measurements, seconds, compiles, patience)");
    t.budget.measurements = static_cast<int>(number_field(b, "measurements", 1, 100000, t.budget.measurements));
    t.budget.seconds = number_field(b, "seconds", 0.001, 86400, t.budget.seconds);
    t.budget.model_compiles = static_cast<int>(number_field(b, "compiles", 1, 100000, t.budget.model_compiles));
    t.budget.patience = static_cast<int>(number_field(b, "patience", 1, 100000, t.budget.patience));
  }
  if (r.contains("target_speedup")) t.target_speedup = number_field(r, "target_speedup", 0.01, 1000, 1);
  t.wait = bool_field(r, "wait");
  t.wait_seconds = number_field(r, "wait_seconds", 0, 3600, t.wait_seconds);
  t.hot = bool_field(r, "hot");
  t.force = bool_field(r, "force");
  return t;
}


const KernelFamily& family_named(const std::string& name) {
  const KernelFamily* f = find_family(name);
  if (!f) {
    std::string known;
    for (const auto& family : all_families()) known += (known.empty() ? "" : ", ") + family->name();
    throw InputError("unknown kernel '" + name + "' (known: " + known + ")");
  }
  return *f;
}

}  // namespace ktune
