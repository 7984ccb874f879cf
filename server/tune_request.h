#pragma once
// The body of POST /v1/tune, parsed and validated before anything is queued or loaded.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "kernels/kernel_family.h"
#include "search/tune_types.h"

namespace ktune {

struct TuneFields {
  const KernelFamily* family = nullptr;
  Problem problem;  // the family's parameters, validated, and the precision
  nlohmann::json workload;
  TuneBudget budget;
  bool wait = false;
  double wait_seconds = 600;
  bool hot = false;
  bool force = false;
  std::optional<double> target_speedup;  // stop once this many times faster than the vendor
};

// Throws InputError naming the field that is unknown, missing, of the wrong type or out of range.
TuneFields parse_tune_request(const nlohmann::json& request);

// The registered family called `name`; InputError listing the known ones otherwise.
const KernelFamily& family_named(const std::string& name);

}  // namespace ktune
