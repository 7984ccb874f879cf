#pragma once
// The first cost model's view of graph_expand.cuh's edge expansion: the work (loop rounds of
// its slowest lane) of each warp of one expansion over every vertex of the graph, under one of
// its five schedules. Shared by the BFS and SSSP estimates; it depends on the schedule, the block
// and the coarsening alone, so a tune's thousands of estimates share a few dozen, kept with the
// workload.
#include <cstdint>
#include <memory>
#include <vector>

#include "workload/workload.h"

namespace ktune {

struct ExpansionSchedule {
  int balance = 0;  // graph_expand.cuh's BALANCE_ value
  int32_t block = 32;
  int32_t coarsen = 1;
  int32_t batch = 1;  // edges a thread takes at once in the segment and tile schedules (the op's kBatch)
  // Dependent L2 round trips one visit of an edge waits on (the op's chain: a relaxation reads
  // the head, its distance, then lowers it, stamps it and takes a queue slot, one after another).
  int32_t round_trips = 1;
};

struct ExpansionWork {
  // Per warp, blocks x (block / 32) of them; float, as a tune keeps dozens of these profiles of
  // up to 2^16 warps each (a count of loop rounds keeps 24 bits exact).
  std::vector<float> warp_work;
  int64_t blocks = 0;             // fewer than the expansion's grid once neighbours are merged
};

std::shared_ptr<const ExpansionWork> expansion_work(const Workload& w, const ExpansionSchedule& schedule);

// One launch's frontier: its vertices, their out-edges and the largest of their rows.
struct Frontier {
  int64_t items = 0;
  int64_t edges = 0;
  int64_t longest = 0;
};

// The dependent round trips of the slowest lane of one expansion over `frontier`: how long the
// launch lasts however many SMs run it (its warps run side by side and the next launch waits
// for the last). A vertex's own chain (its queue entry, its row bounds, its first edge's index)
// counts three.
double expansion_chain_round_trips(const ExpansionSchedule& schedule, const Frontier& frontier);

}  // namespace ktune
