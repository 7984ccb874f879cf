#include "kernels/parameter_space.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "workload/input_error.h"

namespace ktune {

namespace {

const char* kind_name(ParamKind kind) {
  switch (kind) {
    case ParamKind::IntRange:
      return "int_range";
    case ParamKind::PowerOfTwo:
      return "power_of_two";
    case ParamKind::Enum:
      return "enum";
    case ParamKind::Bool:
      return "bool";
  }
  return "unknown";
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

std::string quoted(const std::string& name) { return "'" + name + "'"; }

// What a parameter accepts, phrased for an error message.
std::string accepted_values(const Parameter& p) {
  switch (p.kind) {
    case ParamKind::IntRange:
      return "an integer in [" + std::to_string(p.lo) + ", " + std::to_string(p.hi) + "]" +
             (p.step == 1 ? "" : " in steps of " + std::to_string(p.step));
    case ParamKind::PowerOfTwo:
      return "a power of two in [" + std::to_string(p.lo) + ", " + std::to_string(p.hi) + "]";
    case ParamKind::Enum:
      return "one of " + joined(p.choices);
    case ParamKind::Bool:
      return "true or false";
  }
  return "";
}

std::string value_text(const Parameter& p, int64_t value) {
  const nlohmann::json j = p.value_to_json(value);
  return j.is_string() ? j.get<std::string>() : j.dump();
}

// Calls `visit` with every combination of `names`' values on top of `base`, the last name
// varying fastest, and stops early when `visit` returns false.
template <typename Visit>
void walk(const ParameterSpace& space, const std::vector<std::string>& names, Config base,
          Visit&& visit) {
  std::vector<std::vector<int64_t>> values;
  for (const auto& name : names) {
    values.push_back(space.param(name).values());
    if (values.back().empty()) return;
  }
  std::vector<size_t> position(names.size(), 0);
  for (size_t i = 0; i < names.size(); ++i) base[names[i]] = values[i][0];
  while (true) {
    if (!visit(base)) return;
    size_t i = names.size();
    while (i > 0 && position[i - 1] + 1 == values[i - 1].size()) {
      position[i - 1] = 0;
      base[names[i - 1]] = values[i - 1][0];
      --i;
    }
    if (i == 0) return;
    base[names[i - 1]] = values[i - 1][++position[i - 1]];
  }
}

std::vector<std::string> sorted_names(const ParameterSpace& space) {
  std::vector<std::string> names;
  for (const auto& p : space.params) names.push_back(p.name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

Parameter Parameter::int_range(std::string name, int64_t lo, int64_t hi, int64_t step) {
  if (lo > hi || step < 1) throw std::invalid_argument("bad int range for parameter " + name);
  Parameter p;
  p.name = std::move(name);
  p.kind = ParamKind::IntRange;
  p.lo = lo;
  p.hi = hi;
  p.step = step;
  return p;
}

Parameter Parameter::power_of_two(std::string name, int64_t lo, int64_t hi) {
  if (lo < 1 || lo > hi || hi > (int64_t{1} << 62)) {
    throw std::invalid_argument("bad power-of-two range for parameter " + name);
  }
  Parameter p;
  p.name = std::move(name);
  p.kind = ParamKind::PowerOfTwo;
  p.lo = lo;
  p.hi = hi;
  return p;
}

Parameter Parameter::enumeration(std::string name, std::vector<std::string> choices) {
  if (choices.empty()) throw std::invalid_argument("enum parameter " + name + " has no choices");
  Parameter p;
  p.name = std::move(name);
  p.kind = ParamKind::Enum;
  p.choices = std::move(choices);
  return p;
}

Parameter Parameter::boolean(std::string name) {
  Parameter p;
  p.name = std::move(name);
  p.kind = ParamKind::Bool;
  return p;
}

std::vector<int64_t> Parameter::values() const {
  std::vector<int64_t> out;
  switch (kind) {
    case ParamKind::IntRange:
      for (int64_t v = lo; v <= hi; v += step) {
        out.push_back(v);
        if (hi - v < step) break;  // the next step would overflow past hi
      }
      break;
    case ParamKind::PowerOfTwo:
      for (int64_t v = 1; v <= hi; v *= 2) {
        if (v >= lo) out.push_back(v);
        if (v > hi / 2) break;
      }
      break;
    case ParamKind::Enum:
      for (size_t i = 0; i < choices.size(); ++i) out.push_back(static_cast<int64_t>(i));
      break;
    case ParamKind::Bool:
      out = {0, 1};
      break;
  }
  return out;
}

bool Parameter::admits(int64_t value) const {
  switch (kind) {
    case ParamKind::IntRange:
      return value >= lo && value <= hi && (value - lo) % step == 0;
    case ParamKind::PowerOfTwo:
      return value >= lo && value <= hi && value > 0 && (value & (value - 1)) == 0;
    case ParamKind::Enum:
      return value >= 0 && value < static_cast<int64_t>(choices.size());
    case ParamKind::Bool:
      return value == 0 || value == 1;
  }
  return false;
}

nlohmann::json Parameter::value_to_json(int64_t value) const {
  if (!admits(value)) {
    throw InputError("parameter " + quoted(name) + " has no value " + std::to_string(value) +
                     " (it takes " + accepted_values(*this) + ")");
  }
  switch (kind) {
    case ParamKind::Enum:
      return choices[static_cast<size_t>(value)];
    case ParamKind::Bool:
      return value == 1;
    default:
      return value;
  }
}

int64_t Parameter::value_from_json(const nlohmann::json& v) const {
  const std::string refusal =
      "parameter " + quoted(name) + " must be " + accepted_values(*this) + ", got " + v.dump();
  switch (kind) {
    case ParamKind::Enum: {
      if (!v.is_string()) throw InputError(refusal);
      for (size_t i = 0; i < choices.size(); ++i) {
        if (choices[i] == v.get<std::string>()) return static_cast<int64_t>(i);
      }
      throw InputError(refusal);
    }
    case ParamKind::Bool:
      if (!v.is_boolean()) throw InputError(refusal);
      return v.get<bool>() ? 1 : 0;
    default: {
      int64_t value = 0;
      if (v.is_number_unsigned()) {
        if (v.get<uint64_t>() > static_cast<uint64_t>(hi)) throw InputError(refusal);
        value = static_cast<int64_t>(v.get<uint64_t>());
      } else if (v.is_number_integer()) {
        value = v.get<int64_t>();
      } else if (v.is_number_float()) {
        // Clients in languages without integers send 256.0; anything else is refused.
        const double d = v.get<double>();
        if (!(std::abs(d) < 9.0e18) || std::floor(d) != d) throw InputError(refusal);
        value = static_cast<int64_t>(d);
      } else {
        throw InputError(refusal);
      }
      if (!admits(value)) throw InputError(refusal);
      return value;
    }
  }
}

const Parameter& ParameterSpace::param(const std::string& name) const {
  for (const auto& p : params) {
    if (p.name == name) return p;
  }
  throw InputError("unknown parameter " + quoted(name) + " (known: " + joined(sorted_names(*this)) +
                   ")");
}

double ParameterSpace::nominal_size() const {
  double size = 1;
  for (const auto& p : params) size *= static_cast<double>(p.values().size());
  return size;
}

std::string ParameterSpace::violation(const Config& config) const {
  for (const auto& [name, value] : config) {
    bool known = false;
    for (const auto& p : params) known = known || p.name == name;
    if (!known) return "unknown parameter " + quoted(name);
  }
  for (const auto& p : params) {
    const auto it = config.find(p.name);
    if (it == config.end()) return "missing parameter " + quoted(p.name);
    if (!p.admits(it->second)) {
      return "parameter " + quoted(p.name) + " must be " + accepted_values(p) + ", got " +
             std::to_string(it->second);
    }
  }
  for (const auto& c : constraints) {
    if (!c.holds(config)) return c.description;
  }
  return "";
}

// Odometer over the parameters in name order, values increasing: the result is sorted by
// Config's own ordering, so it does not depend on the order the family declared them in.
std::vector<Config> ParameterSpace::enumerate(size_t cap) const {
  std::vector<Config> out;
  walk(*this, sorted_names(*this), {}, [&](const Config& config) {
    if (!valid(config)) return true;
    if (out.size() == cap) {
      throw LimitError("the parameter space has more than " + std::to_string(cap) +
                       " valid configurations; narrow it with constraints");
    }
    out.push_back(config);
    return true;
  });
  return out;
}

nlohmann::json ParameterSpace::to_json(const Config& config) const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, value] : config) j[name] = param(name).value_to_json(value);
  return j;
}

// Parameters the others pin to a single value (e.g. `lanes` outside the subwarp schedule) may
// be left out: the one valid completion is filled in. Anything ambiguous is refused.
Config ParameterSpace::from_json(const nlohmann::json& j) const {
  if (!j.is_object()) {
    throw InputError("parameters must be a JSON object of name: value, got " + j.dump());
  }
  Config config;
  for (const auto& [name, value] : j.items()) config[name] = param(name).value_from_json(value);

  std::vector<std::string> missing;
  for (const auto& name : sorted_names(*this)) {
    if (!config.count(name)) missing.push_back(name);
  }
  if (!missing.empty()) {
    std::vector<Config> completions;
    Config first_tried;
    walk(*this, missing, config, [&](const Config& candidate) {
      if (first_tried.empty()) first_tried = candidate;
      if (valid(candidate)) completions.push_back(candidate);
      return completions.size() < 2;
    });
    if (completions.size() == 1) return completions.front();
    if (completions.empty()) {
      throw InputError("configuration refused: no value of " + joined(missing) +
                       " fits the others (the first tried breaks: " + violation(first_tried) + ")");
    }
    throw InputError("missing parameter" + std::string(missing.size() > 1 ? "s " : " ") +
                     joined(missing) + " (more than one value fits)");
  }
  const std::string why = violation(config);
  if (!why.empty()) throw InputError("configuration refused: " + why);
  return config;
}

nlohmann::json ParameterSpace::describe() const {
  nlohmann::json out;
  out["parameters"] = nlohmann::json::array();
  for (const auto& p : params) {
    nlohmann::json d{{"name", p.name}, {"kind", kind_name(p.kind)}};
    if (p.kind == ParamKind::IntRange || p.kind == ParamKind::PowerOfTwo) {
      d["lo"] = p.lo;
      d["hi"] = p.hi;
    }
    if (p.kind == ParamKind::IntRange) d["step"] = p.step;
    nlohmann::json values = nlohmann::json::array();
    for (int64_t v : p.values()) values.push_back(p.value_to_json(v));
    d["values"] = values;
    out["parameters"].push_back(d);
  }
  out["constraints"] = nlohmann::json::array();
  for (const auto& c : constraints) out["constraints"].push_back(c.description);
  out["nominal_size"] = nominal_size();
  size_t valid_count = 0;
  walk(*this, sorted_names(*this), {}, [&](const Config& config) {
    valid_count += valid(config) ? 1 : 0;
    return true;
  });
  out["configurations"] = valid_count;
  return out;
}

std::string ParameterSpace::canonical(const Config& config) const {
  std::string out;
  for (const auto& [name, value] : config) {
    out += (out.empty() ? "" : ";") + name + "=" + value_text(param(name), value);
  }
  return out;
}

}  // namespace ktune
