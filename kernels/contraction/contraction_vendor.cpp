#include "kernels/contraction/contraction_vendor.h"

#include <algorithm>
#include <string>

namespace ktune {
namespace {

using Indices = std::vector<std::string>;

bool holds(const Indices& tensor, const std::string& index) {
  return std::find(tensor.begin(), tensor.end(), index) != tensor.end();
}

Indices joined(const Indices& first, const Indices& second) {
  Indices all = first;
  all.insert(all.end(), second.begin(), second.end());
  return all;
}

int64_t size_of(const ContractionSpec& s, const Indices& indices) {
  int64_t n = 1;
  for (size_t i = 0; i < indices.size(); ++i) n *= s.extent;
  return n;
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
    args["gemm"]["ld_" + role] = size_of(s, rows);
  } else if (tensor == joined(cols, rows)) {
    args["gemm"]["transpose_" + role] = true;
    args["gemm"]["ld_" + role] = size_of(s, cols);
  } else {
    args[role == "first" ? "permute_a" : "permute_b"] = permutation(s, tensor, joined(rows, cols));
    args["gemm"]["transpose_" + role] = false;
    args["gemm"]["ld_" + role] = size_of(s, rows);
  }
}

}  // namespace

std::vector<VendorCall> contraction_vendor_calls(const ContractionSpec& s) {
  Indices m, n;
  for (const std::string& i : s.a)
    if (holds(s.out, i)) m.push_back(i);
  for (const std::string& i : s.b)
    if (holds(s.out, i)) n.push_back(i);
  const Indices k = s.contracted();
  nlohmann::json args = {{"a", "a"}, {"b", "b"}, {"in", "t_in"}, {"out", "t_out"}, {"scale", s.sign}};
  args["gemm"] = {{"m", size_of(s, m)}, {"n", size_of(s, n)}, {"k", size_of(s, k)}, {"ldc", size_of(s, m)}};
  operand(s, s.a, m, k, "first", args);
  operand(s, s.b, k, n, "second", args);
  args["permute_out"] = permutation(s, joined(m, n), s.out);  // C's strides of each output index
  nlohmann::json lt = args;
  lt["gemm"]["candidate"] = 0;
  return {{"cublas_ttgt", "ttgt-cublas-gemmex", args}, {"cublas_ttgt", "ttgt-cublaslt-0", lt}};
}

}  // namespace ktune
