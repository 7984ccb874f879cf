#include "kernels/contraction/contraction_vendor.h"

#include <string>

namespace ktune {
namespace {

using Indices = std::vector<std::string>;

Indices joined(const Indices& first, const Indices& second) {
  Indices all = first;
  all.insert(all.end(), second.begin(), second.end());
  return all;
}

nlohmann::json permutation(const ContractionSpec& s, const Indices& tensor, const Indices& order) {
  return {{"extents", std::vector<int64_t>(order.size(), s.extent)}, {"strides", s.strides_in(tensor, order)}};
}

// One operand as the column-major matrix rows x cols (rows = the indices `rows`, fastest
// first): as stored, as stored and transposed, or permuted into place.
void operand(const ContractionSpec& s, const Indices& tensor, const Indices& rows, const Indices& cols,
             const char* which, nlohmann::json& args) {
  const std::string role = which;
  if (tensor == joined(rows, cols)) {
    args["gemm"]["transpose_" + role] = false;
    args["gemm"]["ld_" + role] = s.elements_of(rows);
  } else if (tensor == joined(cols, rows)) {
    args["gemm"]["transpose_" + role] = true;
    args["gemm"]["ld_" + role] = s.elements_of(cols);
  } else {
    args[role == "first" ? "permute_a" : "permute_b"] = permutation(s, tensor, joined(rows, cols));
    args["gemm"]["transpose_" + role] = false;
    args["gemm"]["ld_" + role] = s.elements_of(rows);
  }
}

}  // namespace

std::vector<VendorCall> contraction_vendor_calls(const ContractionSpec& s) {
  const Indices m = s.out_indices_of(s.a), n = s.out_indices_of(s.b), k = s.contracted();
  nlohmann::json args = {{"a", "a"}, {"b", "b"}, {"in", "t_in"}, {"out", "t_out"}, {"scale", s.sign}};
  args["gemm"] = {{"m", s.elements_of(m)}, {"n", s.elements_of(n)}, {"k", s.elements_of(k)}, {"ldc", s.elements_of(m)}};
  operand(s, s.a, m, k, "first", args);
  operand(s, s.b, k, n, "second", args);
  args["permute_out"] = permutation(s, joined(m, n), s.out);  // C's strides of each output index
  nlohmann::json lt = args;
  lt["gemm"]["candidate"] = 0;
  return {{"cublas_ttgt", "ttgt-cublas-gemmex", args}, {"cublas_ttgt", "ttgt-cublaslt-0", lt}};
}

}  // namespace ktune
