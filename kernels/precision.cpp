#include "kernels/precision.h"

#include "workload/input_error.h"

namespace ktune {

std::string to_string(const Precision& p) {
  if (p.is_uniform()) return to_string(p.input);
  return std::string(to_string(p.input)) + ":" + to_string(p.accumulate) + ":" + to_string(p.output);
}

Precision precision_from_string(const std::string& text) {
  const size_t first = text.find(':');
  if (first == std::string::npos) return Precision::uniform(dtype_from_string(text));
  const size_t second = text.find(':', first + 1);
  if (second == std::string::npos || text.find(':', second + 1) != std::string::npos)
    throw InputError("dtype '" + text + "' must be one type (\"f32\") or input:accumulate:output (\"bf16:f32:bf16\")");
  return {dtype_from_string(text.substr(0, first)), dtype_from_string(text.substr(first + 1, second - first - 1)),
          dtype_from_string(text.substr(second + 1))};
}

Precision precision_from_json(const nlohmann::json& j) {
  if (j.is_string()) return precision_from_string(j.get<std::string>());
  if (!j.is_object() || !j.contains("input") || !j["input"].is_string())
    throw InputError("'dtype' must be a string such as \"f32\" or an object {\"input\", \"accumulate\", \"output\"}");
  for (const auto& [key, value] : j.items()) {
    if (key != "input" && key != "accumulate" && key != "output")
      throw InputError("unknown field '" + key + "' in dtype (input, accumulate, output)");
    if (!value.is_string()) throw InputError("dtype." + key + " must be a string such as \"f32\"");
  }
  Precision p = Precision::uniform(dtype_from_string(j["input"].get<std::string>()));
  if (j.contains("accumulate")) p.accumulate = dtype_from_string(j["accumulate"].get<std::string>());
  p.output = j.contains("output") ? dtype_from_string(j["output"].get<std::string>()) : p.input;
  return p;
}

}  // namespace ktune
