#include "kernels/gemm/gemm_shape.h"

namespace ktune {

GemmShape GemmShape::of(const Problem& p) {
  GemmShape s;
  s.m = p.integer("m");
  s.n = p.integer("n");
  s.k = p.integer("k");
  s.batch = p.integer("batch");
  const std::string layout = p.params.at("layout").get<std::string>();
  s.a_transposed = layout[0] == 't';
  s.b_transposed = layout[1] == 't';
  return s;
}

double gemm_operand_bytes(const GemmShape& s, const Precision& p) {
  return (s.a_elements() + s.b_elements()) * static_cast<double>(dtype_size(p.input)) +
         s.c_elements() * static_cast<double>(dtype_size(p.output));
}

}  // namespace ktune
