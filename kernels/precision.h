#pragma once
// The element types of a problem: what its inputs are stored in, what it accumulates in, and
// what it writes. The sparse families use one type throughout; the dense ones (bf16 inputs
// with f32 accumulation, say) do not.
#include <nlohmann/json.hpp>
#include <string>

#include "workload/workload.h"

namespace ktune {

struct Precision {
  Dtype input = Dtype::F32;
  Dtype accumulate = Dtype::F32;
  Dtype output = Dtype::F32;

  static Precision uniform(Dtype d) { return {d, d, d}; }
  bool is_uniform() const { return input == accumulate && accumulate == output; }
  bool operator==(const Precision& o) const {
    return input == o.input && accumulate == o.accumulate && output == o.output;
  }
  bool operator!=(const Precision& o) const { return !(*this == o); }
};

// "f32" when uniform, else "input:accumulate:output", e.g. "bf16:f32:bf16". The form stored
// with answers and used in lookups (GET /v1/configs?dtype=).
std::string to_string(const Precision& p);
// The inverse of to_string; InputError for anything else.
Precision precision_from_string(const std::string& text);
// A request's "dtype": "f32", or {"input": "bf16", "accumulate": "f32", "output": "bf16"}
// (accumulate and output default to input). InputError when malformed.
Precision precision_from_json(const nlohmann::json& j);

}  // namespace ktune
