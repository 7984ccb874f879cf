#include "workload/generator_spec.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <set>

#include "workload/generators.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

// block_expand may nest; deeper than this is a mistake, not a workload.
constexpr int kMaxNesting = 4;

const char* const kGenerators = "stencil2d, stencil3d, rmat, uniform, banded or block_expand";

// A validated spec: its fields, its canonical text and the size of what it generates.
struct Spec {
  std::string generator;
  std::string description;
  std::map<std::string, int64_t> numbers;  // seeds as their bits
  std::unique_ptr<Spec> of;                // block_expand's input
  double rows = 0, cols = 0, entries = 0;  // entries: an upper bound (R-MAT merges repeats)
};

// Reads one spec object field by field, building the description as it goes.
class SpecReader {
 public:
  SpecReader(const nlohmann::json& json, int depth) : json_(json), depth_(depth) {}

  Spec read() {
    if (!json_.is_object()) {
      fail("a generator workload must be a JSON object, got " + std::string(json_.type_name()));
    }
    if (depth_ > kMaxNesting) {
      fail("block_expand nests deeper than " + std::to_string(kMaxNesting) + " levels");
    }
    const auto name = json_.find("generator");
    if (name == json_.end() || !name->is_string()) {
      fail("'generator' must be a string: " + std::string(kGenerators));
    }
    spec_.generator = name->get<std::string>();
    seen_.insert("generator");
    if (spec_.generator == "stencil2d" || spec_.generator == "stencil3d") {
      const int dims = spec_.generator == "stencil2d" ? 2 : 3;
      const double n = static_cast<double>(integer("n", 1));
      spec_.rows = spec_.cols = std::pow(n, dims);
      spec_.entries = (2 * dims + 1) * spec_.rows - 2 * dims * std::pow(n, dims - 1);
    } else if (spec_.generator == "rmat") {
      const auto scale = static_cast<double>(integer("scale", 1));
      const auto edge_factor = static_cast<double>(integer("edge_factor", 1));
      seed();
      spec_.rows = spec_.cols = std::exp2(scale);
      spec_.entries = edge_factor * spec_.rows;
    } else if (spec_.generator == "uniform") {
      spec_.rows = static_cast<double>(integer("rows", 1));
      const int64_t cols = integer("cols", 1);
      const int64_t per_row = integer("per_row", 0);
      if (per_row > cols) {
        fail("'per_row' (" + std::to_string(per_row) + ") cannot exceed 'cols' (" +
             std::to_string(cols) + ")");
      }
      spec_.cols = static_cast<double>(cols);
      seed();
      spec_.entries = spec_.rows * static_cast<double>(per_row);
    } else if (spec_.generator == "banded") {
      const int64_t n = integer("n", 1);
      const int64_t bandwidth = integer("bandwidth", 0);
      if (bandwidth >= n) {
        fail("'bandwidth' (" + std::to_string(bandwidth) + ") must be below 'n' (" +
             std::to_string(n) + ")");
      }
      seed();
      const double w = static_cast<double>(bandwidth);
      spec_.rows = spec_.cols = static_cast<double>(n);
      spec_.entries = spec_.rows * (2 * w + 1) - w * (w + 1);
    } else if (spec_.generator == "block_expand") {
      const auto block = static_cast<double>(integer("block", 1));
      seed();
      nested("of");
      spec_.rows = spec_.of->rows * block;
      spec_.cols = spec_.of->cols * block;
      spec_.entries = spec_.of->entries * block * block;
    } else {
      fail("unknown generator '" + spec_.generator + "' (expected " + kGenerators + ")");
    }
    for (const auto& item : json_.items()) {
      if (!seen_.count(item.key())) fail("unknown field '" + item.key() + "'");
    }
    spec_.description = spec_.generator + "(" + spec_.description + ")";
    return std::move(spec_);
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    const std::string where = spec_.generator.empty() ? "generator spec" : spec_.generator;
    throw InputError(where + ": " + message);
  }

  const nlohmann::json& field(const char* name) {
    const auto it = json_.find(name);
    if (it == json_.end()) fail("missing field '" + std::string(name) + "'");
    seen_.insert(name);
    return *it;
  }

  void describe(const char* name, const std::string& value) {
    if (!spec_.description.empty()) spec_.description += ",";
    spec_.description += std::string(name) + "=" + value;
  }

  int64_t integer(const char* name, int64_t min) {
    const nlohmann::json& value = field(name);
    if (!value.is_number_integer()) {
      fail("'" + std::string(name) + "' must be an integer, got " + value.dump());
    }
    if (value.is_number_unsigned() &&
        value.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      fail("'" + std::string(name) + "' is far too large: " + value.dump());
    }
    const auto number = value.get<int64_t>();
    if (number < min) {
      fail("'" + std::string(name) + "' must be at least " + std::to_string(min) + ", got " +
           value.dump());
    }
    spec_.numbers[name] = number;
    describe(name, std::to_string(number));
    return number;
  }

  void seed() {
    const nlohmann::json& value = field("seed");
    if (!value.is_number_unsigned() && !(value.is_number_integer() && value.get<int64_t>() >= 0)) {
      fail("'seed' must be a non-negative integer, got " + value.dump());
    }
    const auto seed = value.get<uint64_t>();
    spec_.numbers["seed"] = static_cast<int64_t>(seed);
    describe("seed", std::to_string(seed));
  }

  void nested(const char* name) {
    spec_.of = std::make_unique<Spec>(SpecReader(field(name), depth_ + 1).read());
    describe(name, spec_.of->description);
  }

  const nlohmann::json& json_;
  int depth_;
  Spec spec_;
  std::set<std::string> seen_;
};

// Sizes may be astronomically large (2^1000 rows): print them as such.
std::string approximate(double value) {
  if (value < 1e15) return std::to_string(static_cast<int64_t>(value));
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

void check_limits(const Spec& spec, const ReadLimits& limits) {
  const auto int32_max = static_cast<double>(std::numeric_limits<int32_t>::max());
  auto check = [&](double value, int64_t limit, const char* what) {
    const double cap = std::min(static_cast<double>(limit), int32_max);
    if (value > cap) {
      throw LimitError(spec.description + " would have " + approximate(value) + " " + what +
                       ", more than the limit of " + approximate(cap));
    }
  };
  check(spec.rows, limits.max_rows, "rows");
  check(spec.cols, limits.max_cols, "columns");
  check(spec.entries, limits.max_entries, "entries");
  try {  // every size now fits an int32
    check_matrix_size(static_cast<int64_t>(spec.rows), static_cast<int64_t>(spec.cols),
                      static_cast<int64_t>(spec.entries), limits);
  } catch (const LimitError& e) {
    throw LimitError(spec.description + ": " + e.what());
  }
}

// Only after check_limits: every size then fits an int32.
CsrF64 generate(const Spec& spec, bool with_values) {
  auto i32 = [&](const char* name) { return static_cast<int32_t>(spec.numbers.at(name)); };
  const auto seed = spec.numbers.count("seed") ? static_cast<uint64_t>(spec.numbers.at("seed")) : 0;
  if (spec.generator == "stencil2d") return generate_stencil_2d(i32("n"));
  if (spec.generator == "stencil3d") return generate_stencil_3d(i32("n"));
  if (spec.generator == "rmat") return generate_rmat(i32("scale"), i32("edge_factor"), seed, {}, with_values);
  if (spec.generator == "uniform") {
    return generate_uniform(i32("rows"), i32("cols"), i32("per_row"), seed);
  }
  if (spec.generator == "banded") return generate_banded(i32("n"), i32("bandwidth"), seed);
  return block_expand(generate(*spec.of, true), i32("block"), seed);
}

Spec checked_spec(const nlohmann::json& spec, const ReadLimits& limits) {
  Spec parsed = SpecReader(spec, 0).read();
  for (const Spec* s = &parsed; s; s = s->of.get()) check_limits(*s, limits);
  return parsed;
}

}  // namespace

void check_spec(const nlohmann::json& spec, const ReadLimits& limits) {
  checked_spec(spec, limits);
}

CsrF64 generate_from_spec(const nlohmann::json& spec, const ReadLimits& limits, bool with_values) {
  CsrF64 m = generate(checked_spec(spec, limits), with_values);
  if (!with_values) m.values = {};  // the generators that draw them cheaply
  return m;
}

std::string describe_spec(const nlohmann::json& spec) {
  return SpecReader(spec, 0).read().description;
}

}  // namespace ktune
