#pragma once
// A plan that iterates, for the tests of plans with control flow (the interpreter, the
// emulator, the measurement worker): a counter starts at `start` and halves each iteration
// until it reaches 0; each iteration adds it into `acc`, records it in `history` (by the
// loop's iteration number, which the kernel counts in `step`) and, with a grid sized from the
// counter, adds 1 to marks[0..count).
#include <string>
#include <vector>

#include "kernels/device_buffers.h"
#include "kernels/launch_plan.h"

namespace ktune::testing_support {

inline std::string iterative_source() {
  return R"(
extern "C" __global__ void halve(int* count, float* acc, float* history, int* step) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    const int c = count[0];
    acc[0] += (float)c;
    history[step[0]++] = (float)c;
    count[0] = c / 2;
  }
}
extern "C" __global__ void mark(const int* count, float* marks) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count[0]; i += gridDim.x * blockDim.x)
    atomicAdd(&marks[i], 1.0f);
}
)";
}

constexpr int kIterativeStart = 1000;
constexpr int kIterativeHistory = 64;

inline LaunchPlan iterative_plan() {
  LaunchPlan p;
  p.buffers = {{"count", {}, 4}, {"acc", {}, 4},  {"history", {}, 4 * kIterativeHistory},
               {"step", {}, 4},  {"marks", {}, 4 * kIterativeStart}};
  LaunchStep mark;
  mark.entry = "mark";
  mark.block.x = 256;
  mark.grid.x = (kIterativeStart + 255) / 256;  // the most blocks; the counter decides
  mark.grid_from = GridFromCounter{"count", 0, 256};
  mark.args = {KernelArg::of_buffer("count"), KernelArg::of_buffer("marks")};
  LaunchStep halve;
  halve.entry = "halve";
  halve.block.x = 32;
  halve.args = {KernelArg::of_buffer("count"), KernelArg::of_buffer("acc"), KernelArg::of_buffer("history"),
                KernelArg::of_buffer("step")};
  p.steps = {mark, halve};
  p.program = {PlanOp::fill("count", kIterativeStart), PlanOp::fill("acc", 0), PlanOp::fill("history", 0),
               PlanOp::fill("step", 0), PlanOp::fill("marks", 0),
               PlanOp::loop({PlanOp::run(0), PlanOp::run(1)}, "count", kIterativeHistory)};
  p.outputs = {{"acc", 1, Dtype::F32}, {"history", kIterativeHistory, Dtype::F32}, {"marks", kIterativeStart, Dtype::F32}};
  return p;
}

// What the plan computes, worked out on the host.
inline Reference iterative_reference() {
  Reference r;
  std::vector<double>& acc = r["acc"] = {0};
  std::vector<double>& history = r["history"] = std::vector<double>(kIterativeHistory, 0);
  std::vector<double>& marks = r["marks"] = std::vector<double>(kIterativeStart, 0);
  int i = 0;
  for (int c = kIterativeStart; c > 0; c /= 2, ++i) {
    acc[0] += c;
    history[static_cast<size_t>(i)] = c;
    for (int m = 0; m < c; ++m) marks[static_cast<size_t>(m)] += 1;
  }
  return r;
}

// The iterations the loop runs: one per halving until the counter reaches 0.
inline int iterative_iterations() {
  int n = 0;
  for (int c = kIterativeStart; c > 0; c /= 2) ++n;
  return n;
}

}  // namespace ktune::testing_support
