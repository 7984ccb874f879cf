#pragma once
// Checks a kernel's output against the CPU reference before the kernel may be timed
// (DESIGN.md, "Measurement rules"): the families' verifiers are built from these.
//
// check_reduction_output: element i passes when |y_i - ref_i| <= 8 u (n_i + 2) R + m, where
//   u   is the unit roundoff of the output type (2^-24 for f32, 2^-53 for f64);
//   n_i is the reduction length of element i (the products summed into it: a row's length);
//   R   is max_j |ref_j| over the finite reference values;
//   m   is the smallest normal number of the output type.
// Why: a sum of n products in floating point, its inputs rounded to the type first, errs by
// at most about (n + 2) u times the sum of the terms' magnitudes (Higham, "Accuracy and
// Stability of Numerical Algorithms", 3.1); the factor 8 leaves room for any summation
// order (trees, atomics). The terms' magnitudes are unknown here; |ref_i| alone would fail
// correct kernels on rows that cancel (a Laplacian times ones is zero in most rows), so
// the largest output stands in for them. A wrong index or a missing term errs by the size
// of a term, orders of magnitude above this bound. m keeps subnormal noise around exact
// zeros from failing. Non-finite outputs fail unless the reference is the same non-finite
// value; since outputs are poisoned with NaN beforehand, an element the kernel never wrote
// fails here.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "workload/csr_matrix.h"

namespace ktune {

struct Verdict {
  bool ok = false;
  double max_rel_error = 0;  // max_i |y_i - ref_i| / max(R, m); infinite when an output is not finite
  int64_t bad_elements = 0;
  std::string message;       // the first failing element and the count; empty when ok
};

// Empty when `output` holds exactly `n` values of `dtype` (f32, f64 or i32), else why not:
// the first check of every verifier.
std::string output_size_problem(std::string_view output, Dtype dtype, size_t n);
// Element `i` of `output` read as `dtype` (f32, f64 or i32), for verifiers that check meaning
// rather than values (a BFS parent, a component's label).
double output_element(std::string_view output, Dtype dtype, size_t i);

// The number of products summed into each output element.
using ReductionLength = std::function<double(size_t element)>;

// `output` holds reference.size() values of `dtype` (f32 or f64; an i32 output is refused
// with a message saying integers are checked exactly).
Verdict check_reduction_output(std::string_view output, Dtype dtype, const std::vector<double>& reference,
                               const ReductionLength& length);

// Every element exactly equal (integer outputs: depths, labels, counts), of f32, f64 or i32.
// An i32 element the kernel never wrote holds the poison (0x7FF87FF8 on the device), which no
// reference value equals.
Verdict check_exact_output(std::string_view output, Dtype dtype, const std::vector<double>& reference);

}  // namespace ktune
