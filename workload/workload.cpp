#include "workload/workload.h"

#include <utility>

#include "workload/input_error.h"

namespace ktune {

Workload::Workload() : arrays_owner_(std::make_shared<CsrF64>()) {}

Workload::Workload(WorkloadKind k, CsrF64 m)
    : kind(k), matrix(std::move(m)), arrays_owner_(std::make_shared<CsrF64>()) {}

Workload::Workload(const Workload& other)
    : kind(other.kind), matrix(other.matrix), arrays_owner_(std::make_shared<CsrF64>()) {}

Workload& Workload::operator=(const Workload& other) {
  if (this != &other) *this = Workload(other);
  return *this;
}

Workload& Workload::operator=(Workload&& other) noexcept {
  if (this != &other) {
    hand_arrays_to_views();
    kind = other.kind;
    matrix = std::move(other.matrix);
    derived = std::move(other.derived);
    arrays_owner_ = std::move(other.arrays_owner_);
  }
  return *this;
}

Workload::~Workload() { hand_arrays_to_views(); }

void Workload::hand_arrays_to_views() {
  derived = DerivedCache();  // what it holds borrows the arrays too
  if (arrays_owner_ && arrays_owner_.use_count() > 1) *arrays_owner_ = std::move(matrix);
}

const char* to_string(Dtype d) {
  switch (d) {
    case Dtype::F16: return "f16";
    case Dtype::BF16: return "bf16";
    case Dtype::F32: return "f32";
    case Dtype::F64: return "f64";
    case Dtype::I32: return "i32";
    case Dtype::TF32: return "tf32";
  }
  return "?";
}

Dtype dtype_from_string(const std::string& s) {
  if (s == "f32" || s == "float32" || s == "float") return Dtype::F32;
  if (s == "f64" || s == "float64" || s == "double") return Dtype::F64;
  if (s == "f16" || s == "float16" || s == "half") return Dtype::F16;
  if (s == "bf16" || s == "bfloat16") return Dtype::BF16;
  if (s == "i32" || s == "int32") return Dtype::I32;
  if (s == "tf32" || s == "tensorfloat32") return Dtype::TF32;
  throw InputError("unknown dtype '" + s + "' (expected f16, bf16, tf32, f32, f64 or i32)");
}

size_t dtype_size(Dtype d) {
  switch (d) {
    case Dtype::F16:
    case Dtype::BF16: return 2;
    case Dtype::F32:
    case Dtype::TF32:
    case Dtype::I32: return 4;
    case Dtype::F64: return 8;
  }
  return 0;
}

}  // namespace ktune
