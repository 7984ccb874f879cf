#include "workload/workload.h"

#include "workload/input_error.h"

namespace ktune {

const char* to_string(Dtype d) { return d == Dtype::F32 ? "f32" : "f64"; }

Dtype dtype_from_string(const std::string& s) {
  if (s == "f32" || s == "float32" || s == "float") return Dtype::F32;
  if (s == "f64" || s == "float64" || s == "double") return Dtype::F64;
  throw InputError("unknown dtype '" + s + "' (expected f32 or f64)");
}

size_t dtype_size(Dtype d) { return d == Dtype::F32 ? 4 : 8; }

}  // namespace ktune
