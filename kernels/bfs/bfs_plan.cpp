#include "kernels/bfs/bfs_plan.h"

#include <algorithm>

#include "kernels/device_buffers.h"

namespace ktune {

namespace {

// bfs_common.cuh's slots that size the grids.
constexpr uint32_t kQueueItems = 1, kBitmapItems = 2, kPullItems = 3, kToBitmapItems = 4, kToQueueItems = 5;
// bfs_control.cu's KT_CONVERT_BLOCK.
constexpr uint32_t kConvertBlock = 256;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

KernelArg buffer(const char* name) { return KernelArg::of_buffer(name); }

// The shared tail of every per-source kernel's arguments.
void add_rows(std::vector<KernelArg>& args, const BfsShape& shape, int32_t row) {
  args.push_back(buffer("depths"));
  if (shape.parents) args.push_back(buffer("parents"));
  args.push_back(KernelArg::of_scalar(shape.vertices));
  args.push_back(KernelArg::of_scalar(row * shape.vertices));
}

LaunchStep expansion(const char* entry, const BfsShape& shape, const BfsConfig& c, uint32_t slot) {
  LaunchStep step;
  step.entry = entry;
  step.block.x = static_cast<uint32_t>(c.block);
  step.grid.x = static_cast<uint32_t>(std::max<int64_t>(1, ceil_div(shape.vertices, c.tile_items())));
  step.grid_from = GridFromCounter{"bfs_state", slot, static_cast<uint32_t>(c.tile_items())};
  return step;
}

LaunchStep conversion(const char* entry, const BfsShape& shape, uint32_t slot) {
  LaunchStep step;
  step.entry = entry;
  step.block.x = kConvertBlock;
  step.grid.x = static_cast<uint32_t>(std::max<int64_t>(1, ceil_div(shape.vertices, kConvertBlock)));
  step.grid_from = GridFromCounter{"bfs_state", slot, kConvertBlock};
  return step;
}

// The launches of one source's BFS: its start, then the expansions its configuration may run.
std::vector<LaunchStep> source_launches(const BfsShape& shape, const BfsConfig& c, int32_t row) {
  std::vector<LaunchStep> steps;
  LaunchStep start;
  start.entry = "bfs_start";
  start.block.x = 32;
  start.args = {buffer("row_ptr"), buffer("bfs_state"), buffer("queue"), buffer("bitmap"), buffer("depths")};
  if (shape.parents) start.args.push_back(buffer("parents"));
  start.args.push_back(KernelArg::of_scalar(shape.vertices));
  start.args.push_back(KernelArg::of_scalar(static_cast<int32_t>(shape.edges)));
  start.args.push_back(KernelArg::of_scalar(row * shape.vertices));
  start.args.push_back(KernelArg::of_scalar(shape.sources[static_cast<size_t>(row)]));
  steps.push_back(start);
  if (c.pushes_queue()) {
    LaunchStep s = expansion("bfs_push_queue", shape, c, kQueueItems);
    s.args = {buffer("row_ptr"), buffer("col_idx"), buffer("bfs_state"), buffer("queue")};
    add_rows(s.args, shape, row);
    steps.push_back(s);
  }
  if (c.pushes_bitmap()) {
    LaunchStep s = expansion("bfs_push_bitmap", shape, c, kBitmapItems);
    s.args = {buffer("row_ptr"), buffer("col_idx"), buffer("bfs_state"), buffer("bitmap"), buffer("next_bitmap")};
    add_rows(s.args, shape, row);
    steps.push_back(s);
  }
  if (c.pulls()) {
    LaunchStep s = expansion("bfs_pull", shape, c, kPullItems);
    s.args = {buffer("row_ptr"),   buffer("in_row_ptr"), buffer("in_col_idx"),
              buffer("bfs_state"), buffer("bitmap"),     buffer("next_bitmap")};
    add_rows(s.args, shape, row);
    steps.push_back(s);
  }
  return steps;
}

// The launches every source shares: the end of a level and the conversions after it.
std::vector<LaunchStep> level_launches(const BfsShape& shape, const BfsConfig& c) {
  std::vector<LaunchStep> steps;
  LaunchStep end;
  end.entry = "bfs_level_end";
  end.block.x = 32;
  end.args = {buffer("bfs_state"), KernelArg::of_scalar(shape.vertices)};
  steps.push_back(end);
  if (c.converts()) {
    LaunchStep to_bitmap = conversion("bfs_queue_to_bitmap", shape, kToBitmapItems);
    to_bitmap.args = {buffer("bfs_state"), buffer("queue"), buffer("bitmap"), KernelArg::of_scalar(shape.vertices)};
    steps.push_back(to_bitmap);
    LaunchStep to_queue = conversion("bfs_bitmap_to_queue", shape, kToQueueItems);
    to_queue.args = {buffer("bfs_state"), buffer("bitmap"), buffer("queue"), KernelArg::of_scalar(shape.vertices)};
    steps.push_back(to_queue);
  }
  return steps;
}

}  // namespace

std::vector<LaunchStep> bfs_launches(const BfsShape& shape, const BfsConfig& c) {
  std::vector<LaunchStep> steps = level_launches(shape, c);
  for (size_t row = 0; row < shape.sources.size(); ++row) {
    std::vector<LaunchStep> own = source_launches(shape, c, static_cast<int32_t>(row));
    steps.insert(steps.end(), own.begin(), own.end());
  }
  return steps;
}

std::vector<PlanOp> bfs_program(const BfsShape& shape, const BfsConfig& c) {
  const size_t shared = level_launches(shape, c).size();
  const size_t per_source = source_launches(shape, c, 0).size();
  std::vector<PlanOp> program = {PlanOp::fill("depths", 0xFFFFFFFFu)};
  if (shape.parents) program.push_back(PlanOp::fill("parents", 0xFFFFFFFFu));
  for (size_t row = 0; row < shape.sources.size(); ++row) {
    const size_t first = shared + row * per_source;
    if (c.uses_bitmap()) {
      program.push_back(PlanOp::fill("bitmap", 0));
      program.push_back(PlanOp::fill("next_bitmap", 0));
    }
    program.push_back(PlanOp::run(first));
    // A level: its expansion (the grid of the mode not chosen is 0), the next frontier's bits
    // made current, the level's end, then the conversion the next level needs, if any.
    std::vector<PlanOp> level;
    for (size_t k = 1; k < per_source; ++k) level.push_back(PlanOp::run(first + k));
    if (c.uses_bitmap()) {
      level.push_back(PlanOp::copy("next_bitmap", "bitmap"));
      level.push_back(PlanOp::fill("next_bitmap", 0));
    }
    for (size_t k = 0; k < shared; ++k) level.push_back(PlanOp::run(k));
    // A BFS has at most one level per vertex; the bound only stops a wrong kernel.
    program.push_back(PlanOp::loop(std::move(level), "bfs_state", shape.vertices + 1));
  }
  return program;
}

std::vector<DeviceBuffer> bfs_work_buffers(const BfsShape& shape) {
  const size_t n = static_cast<size_t>(std::max(shape.vertices, 1));
  const size_t rows = n * shape.sources.size();
  std::vector<DeviceBuffer> buffers = {
      output_buffer("bfs_state", kBfsStateSlots, Dtype::I32), output_buffer("queue", 2 * n, Dtype::I32),
      output_buffer("bitmap", (n + 31) / 32, Dtype::I32), output_buffer("next_bitmap", (n + 31) / 32, Dtype::I32),
      output_buffer("depths", rows, Dtype::I32)};
  if (shape.parents) buffers.push_back(output_buffer("parents", rows, Dtype::I32));
  return buffers;
}

}  // namespace ktune
