// Generator specs as clients send them: JSON, checked and described, and generated when the
// checks pass under limits that keep every generation cheap. An InputError is the answer to
// bad input; anything else escaping is a bug.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_limits.h"
#include "server/json_body.h"
#include "workload/generator_spec.h"
#include "workload/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const ktune::ReadLimits limits = ktune::fuzz_limits(int64_t{1} << 14);
  nlohmann::json spec;
  try {
    spec = ktune::parse_json_object(text, "the spec");
  } catch (const ktune::InputError&) {
    return 0;
  }
  bool valid = false;
  try {
    ktune::check_spec(spec, limits);
    valid = true;
  } catch (const ktune::InputError&) {
  }
  try {
    const std::string description = ktune::describe_spec(spec);
    if (description.empty()) __builtin_trap();
  } catch (const ktune::InputError&) {
    if (valid) __builtin_trap();  // a spec that passes its checks can be described
  }
  if (!valid) return 0;
  try {
    const ktune::CsrF64 m = ktune::generate_from_spec(spec, limits);
    if (m.nnz() > limits.max_entries || m.rows > limits.max_rows || m.cols > limits.max_cols) __builtin_trap();
  } catch (const ktune::InputError&) {
    __builtin_trap();  // check_spec passed: generating must not refuse
  }
  return 0;
}
