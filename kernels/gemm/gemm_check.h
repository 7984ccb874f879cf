#pragma once
// Checking a GEMM's C on the sampled elements (gemm_reference.h). Element i of the sample
// passes when
//   |y - ref| <= 2 (k + 2) u_acc M_i + u_out |ref| + min_normal(out)
// with M_i = sum_k |a b| (exact, from the reference), u the unit roundoff of the accumulate and
// output types. Why: the inputs are exact in every input type and their products exact in the
// accumulator (7 significant bits each), so only the k additions round, by at most (k + 2) u
// times the sum of the terms' magnitudes in any order (Higham 3.1); the factor 2 covers tensor
// cores, whose adders truncate. Then the store rounds once to the output type. A missing
// k-slice or a wrong tile errs by whole products (|a b| >= 2^-14), far above this for any k a
// problem may have: (k + 2) u_f32 M stays below 2^-24 k^2 <= 2^16 at k = 2^20, and only a
// problem with huge k gets a loose check.
#include <map>
#include <string>

#include "kernels/gemm/gemm_shape.h"
#include "kernels/kernel_family.h"

namespace ktune {

// check_data of a plan: "sample_index" (int64 each) and "sample_magnitude" (double each).
std::map<std::string, HostBytes> gemm_sample_data(const GemmShape& s);

Verdict check_gemm_sample(const GemmShape& s, const Precision& p, const PlanOutput& output, std::string_view got,
                          const std::vector<double>& expected, const CheckData& data);

}  // namespace ktune
