#pragma once
// The check of f32 distances (i32 distances are checked exactly, check_exact_output).
//
// The bound: |got - ref| <= 2 u h ref, u = 2^-24, where h = min(n, ceil(1.01 ref / w_min) + 1)
// bounds the edges of any path the kernel's distance can have come from. Why: a float distance
// is a chain of rounded additions, one per edge of some path, each erring by at most u of the
// running sum, so a distance built over h edges is within about h u of that path's exact length
// (Higham, "Accuracy and Stability", 3.1), which is at least ref; and upward, along the
// reference's own path, the kernel's distance is at most ref (1 + u)^h. A path of length about
// ref has at most ref / w_min edges (w_min the smallest positive weight; zero weights give h = n).
// The factor 2 covers (1 + u)^h - 1 against h u. A wrong or missing edge errs by a weight
// difference, far above this except on graphs whose weights differ by less than 2 u h ref.
// Unreached vertices must hold +inf exactly; a NaN (the poison of an unwritten element) fails.
#include <string_view>
#include <vector>

#include "kernels/output_check.h"

namespace ktune {

Verdict check_float_distances(std::string_view got, const std::vector<double>& expected, double min_weight,
                              size_t vertices);

}  // namespace ktune
