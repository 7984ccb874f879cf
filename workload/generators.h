#pragma once
// Synthetic sparse matrices, deterministic from their parameters and seed. Non-physical
// values are uniform in [0.5, 1.5); stencils carry their Laplacian values. Invalid
// parameters throw InputError; a result beyond 32-bit indices throws LimitError.
#include <cstdint>

#include "workload/csr_matrix.h"

namespace ktune {

// 5-point Laplacian of an n x n grid: n^2 rows, 5n^2 - 4n entries, 4 on the diagonal, -1 off.
CsrF64 generate_stencil_2d(int32_t n);

// 7-point Laplacian of an n x n x n grid: n^3 rows, 7n^3 - 6n^2 entries, 6 and -1.
CsrF64 generate_stencil_3d(int32_t n);

// Graph500 Kronecker (R-MAT) graph: 2^scale vertices, edge_factor * 2^scale directed edges
// drawn with quadrant probabilities a, b, c (d = 1 - a - b - c), vertex labels scrambled by
// a seeded permutation, repeated edges merged; each edge's value is drawn from (seed, edge).
// Without values (a traversal reads none) the graph alone: its row pointers and columns are the
// same either way.
struct RmatQuadrants {
  double a = 0.57, b = 0.19, c = 0.19;  // Graph500's
};
CsrF64 generate_rmat(int scale, int edge_factor, uint64_t seed, RmatQuadrants q = {}, bool with_values = true);

// `per_row` distinct uniformly random columns in every row.
CsrF64 generate_uniform(int32_t rows, int32_t cols, int32_t per_row, uint64_t seed);

// Every entry with |i - j| <= bandwidth of an n x n matrix.
CsrF64 generate_banded(int32_t n, int32_t bandwidth, uint64_t seed);

// The Kronecker product A (x) B with B a dense b x b block of seeded values: each entry of
// A becomes a b x b block scaled by it.
CsrF64 block_expand(const CsrF64& a, int32_t b, uint64_t seed);

}  // namespace ktune
