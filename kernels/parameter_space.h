#pragma once
// Typed tuning parameters, declared constraints, and the configurations they admit.
// Families declare their space here; search/ walks it. Enum and bool values are stored as
// integers (an index into `choices`, 0/1) so that every technique sees one numeric form.
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ktune {

enum class ParamKind { IntRange, PowerOfTwo, Enum, Bool };

struct Parameter {
  std::string name;
  ParamKind kind = ParamKind::IntRange;
  int64_t lo = 0;    // IntRange and PowerOfTwo bounds, inclusive
  int64_t hi = 0;
  int64_t step = 1;  // IntRange only
  std::vector<std::string> choices;  // Enum only

  static Parameter int_range(std::string name, int64_t lo, int64_t hi, int64_t step = 1);
  static Parameter power_of_two(std::string name, int64_t lo, int64_t hi);
  static Parameter enumeration(std::string name, std::vector<std::string> choices);
  static Parameter boolean(std::string name);

  // Every legal value in increasing order.
  std::vector<int64_t> values() const;
  bool admits(int64_t value) const;
  nlohmann::json value_to_json(int64_t value) const;
  int64_t value_from_json(const nlohmann::json& v) const;  // throws InputError
};

using Config = std::map<std::string, int64_t>;

struct Constraint {
  std::string description;  // shown when a configuration is refused
  std::function<bool(const Config&)> holds;
};

class ParameterSpace {
 public:
  std::vector<Parameter> params;
  std::vector<Constraint> constraints;

  const Parameter& param(const std::string& name) const;  // throws InputError
  // Nominal size: the product of the parameter ranges, before constraints.
  double nominal_size() const;
  // Empty string when valid, else the first violated rule.
  std::string violation(const Config& config) const;
  bool valid(const Config& config) const { return violation(config).empty(); }
  // All valid configurations in a fixed order; throws when more than `cap` would be produced.
  std::vector<Config> enumerate(size_t cap = 100000) const;

  nlohmann::json to_json(const Config& config) const;
  Config from_json(const nlohmann::json& j) const;  // validates; throws InputError
  nlohmann::json describe() const;                   // the space itself, for GET /v1/kernels
  // Stable text form, e.g. "block=256;lanes=8;schedule=subwarp": cache keys and tie-breaks.
  std::string canonical(const Config& config) const;
};

}  // namespace ktune
