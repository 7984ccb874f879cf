#include "kernels/sssp/sssp_plan.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/device_buffers.h"

namespace ktune {

namespace {

// sssp_common.cuh's slots that size the grids, and sssp_control.cu's KT_SWEEP_BLOCK.
constexpr uint32_t kItems = 1, kSweepItems = 4;
constexpr uint32_t kSweepBlock = 256;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

KernelArg buffer(const char* name) { return KernelArg::of_buffer(name); }

// Δ (or any distance) as the kernels' dist_t scalar.
KernelArg distance(const SsspShape& shape, double value) {
  if (shape.float_weights) return KernelArg::of_scalar(static_cast<float>(value));
  return KernelArg::of_scalar(static_cast<int32_t>(std::min<double>(value, std::numeric_limits<int32_t>::max())));
}

LaunchStep single_thread(const char* entry) {
  LaunchStep step;
  step.entry = entry;
  step.block.x = 32;
  return step;
}

}  // namespace

double sssp_delta(const SsspShape& shape, const SsspConfig& c) {
  const double delta = c.delta * shape.mean_weight;
  return shape.float_weights ? delta : std::max(1.0, std::round(delta));
}

uint32_t sssp_unreached_bits(bool float_weights) { return float_weights ? 0x7f800000u : 0x7fffffffu; }

int sssp_max_passes(const SsspShape& shape, const SsspConfig& c) {
  double passes = shape.vertices + 1.0;
  if (c.delta_stepping()) passes += std::ceil(shape.vertices * shape.max_weight / sssp_delta(shape, c)) + 1;
  return static_cast<int>(std::min<double>(passes, std::numeric_limits<int>::max()));
}

std::vector<LaunchStep> sssp_launches(const SsspShape& shape, const SsspConfig& c) {
  const int32_t n = shape.vertices;
  const KernelArg delta = distance(shape, sssp_delta(shape, c));
  std::vector<LaunchStep> steps;
  LaunchStep end = single_thread("sssp_pass_end");
  end.args = {buffer("sssp_state"), KernelArg::of_scalar(n), delta};
  steps.push_back(end);
  for (size_t row = 0; row < shape.sources.size(); ++row) {
    const KernelArg offset = KernelArg::of_scalar(static_cast<int32_t>(row) * n);
    LaunchStep start = single_thread("sssp_start");
    start.args = {buffer("sssp_state"), buffer("queue"), buffer("distances"), offset,
                  KernelArg::of_scalar(shape.sources[row]), delta};
    steps.push_back(start);
    LaunchStep relax;
    relax.entry = "sssp_relax";
    relax.block.x = static_cast<uint32_t>(c.block);
    relax.grid.x = static_cast<uint32_t>(std::max<int64_t>(1, ceil_div(n, c.tile_items())));
    relax.grid_from = GridFromCounter{"sssp_state", kItems, static_cast<uint32_t>(c.tile_items())};
    relax.args = {buffer("row_ptr"), buffer("col_idx"), buffer("weights"), buffer("sssp_state"), buffer("queue"),
                  buffer("distances"), buffer("stamps"), buffer("pending"), KernelArg::of_scalar(n), offset};
    steps.push_back(relax);
    if (c.delta_stepping()) {
      LaunchStep sweep;
      sweep.entry = "sssp_sweep";
      sweep.block.x = kSweepBlock;
      sweep.grid.x = static_cast<uint32_t>(std::max<int64_t>(1, ceil_div(n, kSweepBlock)));
      sweep.grid_from = GridFromCounter{"sssp_state", kSweepItems, kSweepBlock};
      sweep.args = {buffer("sssp_state"), buffer("queue"), buffer("distances"), buffer("pending"),
                    KernelArg::of_scalar(n), offset};
      steps.push_back(sweep);
    }
  }
  return steps;
}

AlikeUnits sssp_alike_units(const SsspShape& shape, const SsspConfig& c) {
  // sssp_program's fill of the distances, then per source: the fills, the start, the loop.
  return {1, c.delta_stepping() ? 4u : 3u, shape.sources.size()};
}

std::vector<PlanOp> sssp_program(const SsspShape& shape, const SsspConfig& c) {
  const size_t per_source = c.delta_stepping() ? 3 : 2;  // start, relax (, sweep)
  std::vector<PlanOp> program = {PlanOp::fill("distances", sssp_unreached_bits(shape.float_weights))};
  for (size_t row = 0; row < shape.sources.size(); ++row) {
    const size_t first = 1 + row * per_source;
    program.push_back(PlanOp::fill("stamps", 0));
    if (c.delta_stepping()) program.push_back(PlanOp::fill("pending", 0));
    program.push_back(PlanOp::run(first));
    // A pass: the relaxation, its end, then (delta-stepping) the sweep the end may ask for.
    std::vector<PlanOp> pass = {PlanOp::run(first + 1), PlanOp::run(0)};
    if (c.delta_stepping()) pass.push_back(PlanOp::run(first + 2));
    program.push_back(PlanOp::loop(std::move(pass), "sssp_state", sssp_max_passes(shape, c)));
  }
  return program;
}

std::vector<DeviceBuffer> sssp_work_buffers(const SsspShape& shape) {
  const size_t n = static_cast<size_t>(std::max(shape.vertices, 1));
  return {output_buffer("sssp_state", kSsspStateSlots, Dtype::I32), output_buffer("queue", 2 * n, Dtype::I32),
          output_buffer("stamps", n, Dtype::I32), output_buffer("pending", n, Dtype::I32),
          output_buffer("distances", n * shape.sources.size(), shape.float_weights ? Dtype::F32 : Dtype::I32)};
}

}  // namespace ktune
