#pragma once
// The connected-components parameter space and one configuration of it in typed form.
#include <cstdint>
#include <string>

#include "kernels/parameter_space.h"

namespace ktune {

// In the order of the "algorithm" choices.
//  - label_propagation: each vertex takes the smallest label among its own and its
//    neighbours' (min-label propagation); a label moves one hop or more per iteration.
//  - hooking: Shiloach–Vishkin style: for every edge whose ends have different parents, the
//    larger parent is hooked under the smaller (atomicMin), then pointer jumping shortens the
//    trees. Parents always point to smaller ids, so the forest never has a cycle.
//  - union_find: one pass in ECL-CC's manner (Jaiganesh and Burtscher, HPDC 2018): each edge
//    once, its ends' roots found with path halving and the larger root hooked under the smaller
//    with a compare-and-swap (retried when another thread hooked it first), then one pass that
//    points every vertex at its root. No loop: every edge is visited once.
enum class CcAlgorithm { LabelPropagation, Hooking, UnionFind };

// In the order of the "schedule" choices: how the edge pass is spread over threads.
//  - vertex: `lanes` threads per vertex (1: a thread per vertex; 32: a warp per vertex) walk
//    its adjacency list, `items` vertices per thread group;
//  - edge: a thread per undirected edge (each edge once, as a pair u < v), `items` edges per
//    thread: perfectly balanced whatever the degrees, at the price of atomics on both ends.
enum class CcSchedule { Vertex, Edge };

// algorithm, schedule, block (threads per block), lanes (threads per vertex, vertex schedule
// only), items (vertices or edges per thread: coarsening), jumps (pointer-jumping rounds per
// iteration: label[v] = label[label[v]]; hooking needs at least one, or hooks onto non-roots
// would never progress; union_find none, its last pass takes every vertex to its root).
// Parameters a choice does not use are pinned to one value.
ParameterSpace cc_space();

struct CcConfig {
  CcAlgorithm algorithm = CcAlgorithm::LabelPropagation;
  CcSchedule schedule = CcSchedule::Vertex;
  int32_t block = 256;
  int32_t lanes = 1;
  int32_t items = 1;
  int32_t jumps = 0;

  // Validates against cc_space(); throws InputError naming the refused parameter.
  static CcConfig from(const Config& config);

  // Vertices (vertex schedule) or edges (edge schedule) one block covers.
  int64_t work_per_block() const {
    return schedule == CcSchedule::Vertex ? int64_t{block} / lanes * items : int64_t{block} * items;
  }
};

}  // namespace ktune
