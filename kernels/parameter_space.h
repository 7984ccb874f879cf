#pragma once
// Typed tuning parameters, declared constraints, and the configurations they admit.
// Families declare their space here; search/ walks it. Enum and bool values are stored as
// integers (an index into `choices`, 0/1) so that every technique sees one numeric form.
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
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
  // The same values addressed by position, without listing them (a range may hold 10^9):
  // the numeric form search techniques move in (enum and bool by index, power of two by
  // exponent, int range by step).
  int64_t count() const;
  int64_t value_at(int64_t index) const;  // index clamped to [0, count())
  int64_t index_of(int64_t value) const;  // value must be admitted
  bool admits(int64_t value) const;
  nlohmann::json value_to_json(int64_t value) const;
  int64_t value_from_json(const nlohmann::json& v) const;  // throws InputError
};

using Config = std::map<std::string, int64_t>;

struct Constraint {
  std::string description;  // shown when a configuration is refused
  std::function<bool(const Config&)> holds;
};

// What ptxas and the launch say about one compiled configuration: known only after compiling,
// checked before launching.
struct KernelResources {
  int registers_per_thread = 0;
  int64_t shared_bytes = 0;  // static + dynamic, per block
  int threads_per_block = 0;
  int64_t spill_bytes = 0;  // local-memory stores and loads ptxas added, per thread
};

// The per-block limits of the device (defaults: sm_80..sm_90).
struct DeviceLimits {
  int max_registers_per_thread = 255;
  int registers_per_block = 65536;
  int64_t shared_bytes_per_block = 232448;  // the opt-in maximum of sm_90
  int max_threads_per_block = 1024;
};

// A family rule that needs the compiled kernel (e.g. "no spills at block 1024").
struct HardwareConstraint {
  std::string description;
  std::function<bool(const Config&, const KernelResources&, const DeviceLimits&)> holds;
};

// Random numbers that are the same on every standard library (std::uniform_int_distribution
// is not), so that a tune replays identically wherever it resumes.
using SpaceRng = std::mt19937_64;
uint64_t uniform_below(SpaceRng& rng, uint64_t n);  // uniform in [0, n), n > 0

class ParameterSpace {
 public:
  std::vector<Parameter> params;
  std::vector<Constraint> constraints;
  std::vector<HardwareConstraint> hardware_constraints;

  const Parameter& param(const std::string& name) const;  // throws InputError
  // Nominal size: the product of the parameter ranges, before constraints.
  double nominal_size() const;
  // Empty string when valid, else the first violated rule.
  std::string violation(const Config& config) const;
  bool valid(const Config& config) const { return violation(config).empty(); }
  // All valid configurations in a fixed order; throws LimitError when the space's nominal size
  // is over `cap` (spaces of 10^6 points and more are sampled, never listed).
  std::vector<Config> enumerate(size_t cap = kEnumerationCap) const;
  static constexpr size_t kEnumerationCap = 100000;
  // The first valid configuration in enumeration order (a family's default), found without
  // listing the space; a seeded draw for spaces too large to walk.
  Config first_valid() const;
  // Up to `count` distinct valid configurations: every one when the space has no more,
  // otherwise a uniform draw (random_valid, deduplicated).
  std::vector<Config> sample(SpaceRng& rng, size_t count) const;

  // After compilation, before launch: empty when the device can run it, else why not (the
  // device limits first, then the family's hardware constraints).
  std::string hardware_violation(const Config& config, const KernelResources& resources,
                                 const DeviceLimits& limits = {}) const;

  // A uniformly drawn valid configuration, for spaces too large to enumerate: rejection
  // sampling with at most `max_draws` draws; throws LimitError naming the constraint that
  // refused most draws when none was valid.
  Config random_valid(SpaceRng& rng, size_t max_draws = 100000) const;

  // The numeric form: one position per parameter, in declaration order (Parameter::value_at).
  std::vector<int64_t> to_indices(const Config& config) const;
  Config from_indices(const std::vector<int64_t>& indices) const;  // positions clamped
  // Valid configurations one step away in one parameter's numeric form (for enums: any
  // other choice), in declaration order.
  std::vector<Config> neighbours(const Config& config) const;

  nlohmann::json to_json(const Config& config) const;
  Config from_json(const nlohmann::json& j) const;  // validates; throws InputError
  // The space itself, for GET /v1/kernels; "configurations" (the valid count) is null when
  // the nominal size is over `count_cap`, rather than walking 10^9 points.
  nlohmann::json describe(double count_cap = 1e6) const;
  // Stable text form, e.g. "block=256;lanes=8;schedule=subwarp": cache keys and tie-breaks.
  std::string canonical(const Config& config) const;
  // Its inverse: the validated configuration a canonical text names (throws InputError).
  Config from_canonical(const std::string& key) const;
};

}  // namespace ktune
