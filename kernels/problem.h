#pragma once
// What a request asks a family to compute beyond the workload itself: its problem parameters
// (the dense width k of SpMM, a source vertex, a GEMM's shape) and its precision. A family
// declares the parameters it takes as a schema; a request's "problem" is validated against it
// before anything is allocated, and the canonical form (every field, defaults filled in,
// keys sorted) is part of every lookup key and stored answer.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kernels/precision.h"

namespace ktune {

enum class FieldKind { Integer, Number, IntegerList, Choice, Boolean, Text };

struct ProblemField {
  std::string name;
  FieldKind kind = FieldKind::Integer;
  double lo = 0, hi = 0;              // Integer, Number, and IntegerList items: inclusive bounds
  size_t max_items = 0;               // IntegerList
  std::vector<std::string> choices;   // Choice
  nlohmann::json fallback;            // the value when absent; null: the field is required
  std::string description;

  static ProblemField integer(std::string name, int64_t lo, int64_t hi, nlohmann::json fallback, std::string description);
  static ProblemField number(std::string name, double lo, double hi, nlohmann::json fallback, std::string description);
  static ProblemField integer_list(std::string name, int64_t lo, int64_t hi, size_t max_items, nlohmann::json fallback,
                                   std::string description);
  static ProblemField choice(std::string name, std::vector<std::string> choices, nlohmann::json fallback,
                             std::string description);
  static ProblemField boolean(std::string name, bool fallback, std::string description);
  // Printable ASCII of at most `max_length` characters (an expression, a name): what a family
  // parses itself, never echoed unchecked.
  static ProblemField text(std::string name, size_t max_length, std::string fallback, std::string description);

  // What the field accepts, for error messages and GET /v1/kernels.
  std::string accepts() const;
};

struct ProblemSchema {
  std::vector<ProblemField> fields;

  // `given` (an object, or null for none) in canonical form: every field, defaults filled.
  // InputError naming the field and what it accepts for anything unknown, missing or out of range.
  nlohmann::json validate(const nlohmann::json& given) const;
  nlohmann::json describe() const;
};

struct Problem {
  nlohmann::json params = nlohmann::json::object();  // canonical (ProblemSchema::validate)
  Precision precision;

  // The canonical text of the parameters: "{}" for a family without any, "{\"k\":128}" for SpMM.
  std::string key() const { return params.dump(); }
  int64_t integer(const std::string& name) const { return params.at(name).get<int64_t>(); }
  double number(const std::string& name) const { return params.at(name).get<double>(); }

  // A problem without parameters in one uniform precision (tests, benchmarks, SpMV).
  static Problem of(Dtype dtype, nlohmann::json params = nlohmann::json::object()) {
    return {std::move(params), Precision::uniform(dtype)};
  }
};

}  // namespace ktune
