#pragma once
// A vendor library call a family is measured against (cuSPARSE's SpMV, SpMM, SDDMM; cuBLAS
// next): its name in the measurement worker's registry (gpu/vendor_calls.h) and its
// arguments, buffers by role and sizes, so that the call names no family's buffers itself.
#include <nlohmann/json.hpp>
#include <string>

namespace ktune {

struct VendorCall {
  std::string name;  // e.g. "cusparse_spmv", shown as the baseline's name with `label`
  std::string label;  // e.g. "cusparse-csr_alg2"
  nlohmann::json args = nlohmann::json::object();
};

}  // namespace ktune
