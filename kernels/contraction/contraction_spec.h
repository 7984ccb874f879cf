#pragma once
// A tensor contraction in index notation, "T3[h3,h2,h1,p6,p5,p4] -= t2[h7,p4,p5,h1] *
// v2[h3,h2,p6,h7]": every index of the output comes from exactly one operand, every index the
// operands share and the output lacks is summed over. Tensors are stored with their FIRST index
// fastest (NWChem's Fortran order: T3[h3,...] has h3 at stride 1). The 18 CCSD(T) triples
// contractions of NWChem (sd_t_d1_1..9, sd_t_d2_1..9) are presets.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kernels/problem.h"

namespace ktune {

constexpr int kContractionMaxRank = 8;
constexpr int64_t kContractionMaxExtent = 1024;

struct ContractionSpec {
  std::vector<std::string> out, a, b;  // index names in storage order
  std::string out_name = "T", a_name = "A", b_name = "B";
  int sign = 1;                        // +1: out = in + A·B; -1: out = in - A·B
  int64_t extent = 16;                 // every index's extent (NWChem's tiles are uniform)

  // Parses `expression` (brackets or parentheses; "+=", "-=" or "="); InputError saying what
  // is wrong otherwise.
  static ContractionSpec parse(const std::string& expression, int64_t extent);
  // The problem's preset or expression, at its extent.
  static ContractionSpec of(const Problem& p);

  std::vector<std::string> contracted() const;  // in a's order
  // The output's indices that `operand` (a or b) holds, in the operand's order.
  std::vector<std::string> out_indices_of(const std::vector<std::string>& operand) const;
  int64_t elements_of(const std::vector<std::string>& indices) const;  // extent^(number of indices)
  int64_t out_elements() const;
  int64_t a_elements() const;
  int64_t b_elements() const;
  int64_t contracted_elements() const;
  // The stride in `tensor` (a or b) of each index of `indices`, 0 where the tensor lacks it.
  std::vector<int64_t> strides_in(const std::vector<std::string>& tensor, const std::vector<std::string>& indices) const;
  std::string text() const;  // the canonical expression
};

// A kernel's compile-time array of strides or tiles, "{1LL,16LL,...}" (a -D value).
std::string braced(const std::vector<int64_t>& v);

// The presets by name, in order: sd_t_d1_1..9 then sd_t_d2_1..9.
const std::vector<std::pair<std::string, std::string>>& contraction_presets();

}  // namespace ktune
