#pragma once
// The launches and program of one BFS configuration: per source, a start and a loop of levels
// until the frontier is empty (bfs_control.cu decides each level's mode on the device).
#include <cstdint>
#include <vector>

#include "kernels/bfs/bfs_config.h"
#include "kernels/launch_plan.h"

namespace ktune {

// What the launches depend on besides the configuration: no data of the graph.
struct BfsShape {
  int32_t vertices = 0;
  int64_t edges = 0;
  std::vector<int32_t> sources;
  bool parents = false;
};

// The int32 slots of the "bfs_state" buffer (bfs_common.cuh's STATE_ slots); the loop stops when
// slot 0, the frontier's length, is zero.
constexpr uint32_t kBfsStateSlots = 16;

std::vector<LaunchStep> bfs_launches(const BfsShape& shape, const BfsConfig& c);
// The program over bfs_launches' steps: depths (and parents) filled with -1 once, then each
// source in turn, its depths one row of n of the outputs.
std::vector<PlanOp> bfs_program(const BfsShape& shape, const BfsConfig& c);
// The scratch buffers and outputs the launches name (the graph's inputs aside).
std::vector<DeviceBuffer> bfs_work_buffers(const BfsShape& shape);

}  // namespace ktune
