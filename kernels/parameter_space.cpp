#include "kernels/parameter_space.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
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

// As value_to_json would print it, without building JSON: canonical() is on the search's hot
// path (every store look-up).
std::string value_text(const Parameter& p, int64_t value) {
  if (!p.admits(value)) return p.value_to_json(value).dump();  // throws the InputError
  switch (p.kind) {
    case ParamKind::Enum:
      return p.choices[static_cast<size_t>(value)];
    case ParamKind::Bool:
      return value ? "true" : "false";
    default:
      return std::to_string(value);
  }
}

// Calls `visit` with every combination of `names`' values on top of `base`, the last name
// varying fastest, and stops early when `visit` returns false.
template <typename Visit>
void walk(const ParameterSpace& space, const std::vector<std::string>& names, Config base,
          Visit&& visit) {
  std::vector<std::vector<int64_t>> values;
  for (const auto& name : names) {
    if (space.param(name).count() > 100000000) {
      throw LimitError("parameter '" + name + "' has too many values to enumerate");
    }
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
  const int64_t n = count();
  out.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) out.push_back(value_at(i));
  return out;
}

namespace {
int64_t floor_log2(int64_t v) {
  int64_t e = 0;
  while (v > 1) {
    v >>= 1;
    ++e;
  }
  return e;
}
int64_t ceil_log2(int64_t v) { return v <= 1 ? 0 : floor_log2(v - 1) + 1; }
}  // namespace

int64_t Parameter::count() const {
  switch (kind) {
    case ParamKind::IntRange:
      return (hi - lo) / step + 1;
    case ParamKind::PowerOfTwo:
      return std::max<int64_t>(0, floor_log2(hi) - ceil_log2(lo) + 1);
    case ParamKind::Enum:
      return static_cast<int64_t>(choices.size());
    case ParamKind::Bool:
      return 2;
  }
  return 0;
}

int64_t Parameter::value_at(int64_t index) const {
  index = std::clamp<int64_t>(index, 0, std::max<int64_t>(0, count() - 1));
  switch (kind) {
    case ParamKind::IntRange:
      return lo + index * step;
    case ParamKind::PowerOfTwo:
      return int64_t{1} << (ceil_log2(lo) + index);
    default:
      return index;
  }
}

int64_t Parameter::index_of(int64_t value) const {
  if (!admits(value)) {
    throw std::invalid_argument("parameter " + name + " has no value " + std::to_string(value));
  }
  switch (kind) {
    case ParamKind::IntRange:
      return (value - lo) / step;
    case ParamKind::PowerOfTwo:
      return floor_log2(value) - ceil_log2(lo);
    default:
      return value;
  }
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
  for (const auto& p : params) size *= static_cast<double>(p.count());
  return size;
}

uint64_t uniform_below(SpaceRng& rng, uint64_t n) {
  // Rejects the top partial block of 2^64 so that every residue is equally likely.
  const uint64_t limit = std::numeric_limits<uint64_t>::max() - std::numeric_limits<uint64_t>::max() % n;
  uint64_t x = rng();
  while (x >= limit) x = rng();
  return x % n;
}

std::string ParameterSpace::hardware_violation(const Config& config, const KernelResources& r,
                                               const DeviceLimits& limits) const {
  if (r.threads_per_block > limits.max_threads_per_block) {
    return std::to_string(r.threads_per_block) + " threads per block exceed the device's " +
           std::to_string(limits.max_threads_per_block);
  }
  if (r.registers_per_thread > limits.max_registers_per_thread) {
    return std::to_string(r.registers_per_thread) + " registers per thread exceed the device's " +
           std::to_string(limits.max_registers_per_thread);
  }
  // Registers are allocated per warp in units of 8 per thread: a block that asks for more than
  // the register file cannot launch at all.
  const int64_t warps = (r.threads_per_block + 31) / 32;
  const int64_t per_thread = (r.registers_per_thread + 7) / 8 * 8;
  if (warps * 32 * per_thread > limits.registers_per_block) {
    return std::to_string(r.registers_per_thread) + " registers per thread x " +
           std::to_string(r.threads_per_block) + " threads exceed the " +
           std::to_string(limits.registers_per_block) + " registers of a block";
  }
  if (r.shared_bytes > limits.shared_bytes_per_block) {
    return std::to_string(r.shared_bytes) + " bytes of shared memory exceed the device's " +
           std::to_string(limits.shared_bytes_per_block) + " per block";
  }
  for (const auto& c : hardware_constraints) {
    if (!c.holds(config, r, limits)) return c.description;
  }
  return "";
}

Config ParameterSpace::random_valid(SpaceRng& rng, size_t max_draws) const {
  std::map<std::string, size_t> refusals;
  for (size_t draw = 0; draw < max_draws; ++draw) {
    Config config;
    for (const auto& p : params) {
      config[p.name] = p.value_at(static_cast<int64_t>(uniform_below(rng, static_cast<uint64_t>(p.count()))));
    }
    const std::string why = violation(config);
    if (why.empty()) return config;
    ++refusals[why];
  }
  std::string worst;
  size_t worst_count = 0;
  for (const auto& [why, n] : refusals) {
    if (n > worst_count) {
      worst = why;
      worst_count = n;
    }
  }
  throw LimitError("no valid configuration in " + std::to_string(max_draws) +
                   " random draws from a space of " + std::to_string(nominal_size()) +
                   " nominal points; the constraints admit too few of them (most refused by: " +
                   worst + ")");
}

std::vector<int64_t> ParameterSpace::to_indices(const Config& config) const {
  std::vector<int64_t> out;
  for (const auto& p : params) {
    const auto it = config.find(p.name);
    if (it == config.end()) throw InputError("missing parameter " + quoted(p.name));
    out.push_back(p.index_of(it->second));
  }
  return out;
}

Config ParameterSpace::from_indices(const std::vector<int64_t>& indices) const {
  if (indices.size() != params.size()) {
    throw std::invalid_argument("expected " + std::to_string(params.size()) + " indices, got " +
                                std::to_string(indices.size()));
  }
  Config config;
  for (size_t i = 0; i < params.size(); ++i) config[params[i].name] = params[i].value_at(indices[i]);
  return config;
}

std::vector<Config> ParameterSpace::neighbours(const Config& config) const {
  const std::vector<int64_t> at = to_indices(config);
  std::vector<Config> out;
  for (size_t i = 0; i < params.size(); ++i) {
    std::vector<int64_t> moves;
    if (params[i].kind == ParamKind::Enum) {
      // Choices have no order: every other choice is one step away.
      for (int64_t v = 0; v < params[i].count(); ++v) {
        if (v != at[i]) moves.push_back(v);
      }
    } else {
      if (at[i] > 0) moves.push_back(at[i] - 1);
      if (at[i] + 1 < params[i].count()) moves.push_back(at[i] + 1);
    }
    for (int64_t v : moves) {
      std::vector<int64_t> next = at;
      next[i] = v;
      Config candidate = from_indices(next);
      if (valid(candidate)) out.push_back(std::move(candidate));
    }
  }
  return out;
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
  // Walking is linear in the nominal size, whatever the constraints keep.
  if (nominal_size() > std::max(1e7, 100.0 * static_cast<double>(cap))) {
    throw LimitError("the parameter space has " + std::to_string(nominal_size()) +
                     " nominal points, too many to enumerate; sample it instead");
  }
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

Config ParameterSpace::first_valid() const {
  if (nominal_size() > 1e7) {
    SpaceRng rng(0);
    return random_valid(rng);
  }
  std::optional<Config> first;
  walk(*this, sorted_names(*this), {}, [&](const Config& config) {
    if (!valid(config)) return true;
    first = config;
    return false;
  });
  if (!first) throw LimitError("the parameter space has no valid configuration");
  return *first;
}

std::vector<Config> ParameterSpace::sample(SpaceRng& rng, size_t count) const {
  if (nominal_size() <= static_cast<double>(kEnumerationCap)) {
    std::vector<Config> all = enumerate();
    if (all.size() <= count) return all;
    // A partial Fisher-Yates shuffle with the space's own portable draws.
    for (size_t i = 0; i < count; ++i) std::swap(all[i], all[i + uniform_below(rng, all.size() - i)]);
    all.resize(count);
    return all;
  }
  std::vector<Config> out;
  std::set<Config> seen;
  for (size_t draws = 0; out.size() < count && draws < 4 * count; ++draws) {
    Config c = random_valid(rng);
    if (seen.insert(c).second) out.push_back(std::move(c));
  }
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

nlohmann::json ParameterSpace::describe(double count_cap) const {
  nlohmann::json out;
  out["parameters"] = nlohmann::json::array();
  for (const auto& p : params) {
    nlohmann::json d{{"name", p.name}, {"kind", kind_name(p.kind)}};
    if (p.kind == ParamKind::IntRange || p.kind == ParamKind::PowerOfTwo) {
      d["lo"] = p.lo;
      d["hi"] = p.hi;
    }
    if (p.kind == ParamKind::IntRange) d["step"] = p.step;
    d["count"] = p.count();
    if (p.count() <= 256) {  // a long range is described by its bounds
      nlohmann::json values = nlohmann::json::array();
      for (int64_t v : p.values()) values.push_back(p.value_to_json(v));
      d["values"] = values;
    }
    out["parameters"].push_back(d);
  }
  out["constraints"] = nlohmann::json::array();
  for (const auto& c : constraints) out["constraints"].push_back(c.description);
  out["hardware_constraints"] = nlohmann::json::array();
  for (const auto& c : hardware_constraints) out["hardware_constraints"].push_back(c.description);
  out["nominal_size"] = nominal_size();
  if (nominal_size() > count_cap) {
    out["configurations"] = nullptr;
    return out;
  }
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

Config ParameterSpace::from_canonical(const std::string& key) const {
  nlohmann::json values = nlohmann::json::object();
  size_t start = 0;
  while (start < key.size()) {
    size_t end = key.find(';', start);
    if (end == std::string::npos) end = key.size();
    const std::string field = key.substr(start, end - start);
    const size_t eq = field.find('=');
    if (eq == std::string::npos) throw InputError("configuration '" + key + "': no name=value in '" + field + "'");
    const std::string name = field.substr(0, eq), text = field.substr(eq + 1);
    // canonical() writes an enumeration's choice bare, numbers and booleans as JSON.
    if (param(name).kind == ParamKind::Enum) {
      values[name] = text;
    } else {
      const nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
      if (parsed.is_discarded()) throw InputError("configuration '" + key + "': '" + text + "' is not a value of " + name);
      values[name] = parsed;
    }
    start = end + 1;
  }
  return from_json(values);
}

}  // namespace ktune
