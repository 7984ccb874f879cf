#pragma once
// The edge weights an SSSP runs on, held once, as the kernels read them (int32, or float for
// f32 distances): the device buffer's bytes are what the reference and the host walk read too,
// so a graph of 65 M edges keeps 260 MB of weights, not a double copy beside them.
#include <cstdint>
#include <cstring>

#include "kernels/kernel_family.h"
#include "kernels/problem.h"
#include "workload/csr_matrix.h"

namespace ktune {

struct SsspWeights {
  DeviceBuffer buffer;  // "weights": one per CSR nonzero (at least one, so that it is never empty)
  bool as_float = false;
  size_t edges = 0;
  // Over the edges (1s for a graph without any); min is the smallest positive weight (0 when
  // none is): adding a zero weight rounds nothing, so it is what bounds float error.
  double min = 0, max = 0, mean = 1;

  double operator[](size_t e) const {
    const std::byte* at = buffer.bytes.data() + e * 4;
    if (as_float) {
      float f;
      std::memcpy(&f, at, sizeof f);
      return f;
    }
    int32_t i;
    std::memcpy(&i, at, sizeof i);
    return i;
  }
};

// Generated weights' formula: 1 + a hash of the unordered pair {u, v} mod max_weight.
int32_t generated_weight(int32_t u, int32_t v, int64_t max_weight);

// The weights sssp_problem.h's parameters name, in the problem's output precision.
SsspWeights sssp_weights(const CsrF64& graph, const Problem& p);

}  // namespace ktune
