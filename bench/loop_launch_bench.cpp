// What a plan's launches cost on the device, with next to no work in them: the first cost model's
// launch terms (GpuSpec::launch_overhead_us and the loop's) come from here. Plans of K tiny
// launches run straight (as union-find's), or in a loop of N iterations on the device (a CUDA
// graph of a conditional while-node, as BFS, SSSP, PageRank and CC run), with and without a
// fill in the loop's body and with grids of one block or four blocks an SM; then loops whose
// kernel is a full wave of blocks (as a graph loop's counter-sized launch is) each thread of
// which follows a chain of dependent loads. Each plan is timed whole by the measurement worker,
// as a family's plan is (L2 flushed, medians).
//   loop_launch_bench [--out FILE.json]
// Prints a table, and the least-squares fit of each shape's time against N and K.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpu/measurer.h"
#include "gpu/nvrtc_compiler.h"
#include "kernels/device_buffers.h"
#include "kernels/launch_plan.h"

namespace ktune {
namespace {

// touch: every thread of the grid adds one to its word (a launch that does a little work);
// tick: the loop's counter down by one (the last launch of an iteration), and what is left as a
// float, the output the worker checks (0 once the loop has run its iterations).
const char* const kSource = R"(
extern "C" __global__ void touch(int n, int* data) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1;
}
extern "C" __global__ void chain(int n, const int* __restrict__ next, int hops, int* sink) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) % n;
  for (int h = 0; h < hops; ++h) i = next[i];
  if (i < 0) sink[0] = i;  // never: keeps the loads
}
extern "C" __global__ void tick(int* count, float* left) {
  if (threadIdx.x == 0 && blockIdx.x == 0) left[0] = (float)(count[0] -= 1);
}
)";

struct Shape {
  int iterations = 0;  // 0: no loop, the launches run once, straight
  int launches = 1;    // a loop's: touch (or chain) launches - 1 and the tick
  bool fill = false;   // a fill of the data in each iteration (as CC's flag, BFS's queue counters)
  int blocks = 1;
  int threads = 256;
  int hops = -1;       // >= 0: the chain kernel with this many dependent loads a thread, not touch
};

// The chain's links: a random cycle over 16 K words (64 KiB: L2 holds them after the first
// iteration), so that consecutive loads of a thread land on unrelated lines.
constexpr int kChainWords = 16384;

std::vector<int32_t> chain_links() {
  std::vector<int32_t> order(kChainWords), next(kChainWords);
  for (int i = 0; i < kChainWords; ++i) order[static_cast<size_t>(i)] = i;
  uint64_t state = 12345;
  for (int i = kChainWords - 1; i > 0; --i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    std::swap(order[static_cast<size_t>(i)], order[static_cast<size_t>((state >> 33) % static_cast<uint64_t>(i + 1))]);
  }
  for (int i = 0; i < kChainWords; ++i)
    next[static_cast<size_t>(order[static_cast<size_t>(i)])] = order[static_cast<size_t>((i + 1) % kChainWords)];
  return next;
}

LaunchPlan plan_of(const Shape& s) {
  const int words = s.blocks * s.threads;
  LaunchPlan p;
  p.buffers = {{"count", {}, 4}, {"left", {}, 4}, {"data", {}, static_cast<size_t>(4 * words)}};
  LaunchStep touch;
  touch.entry = s.hops >= 0 ? "chain" : "touch";
  touch.grid.x = static_cast<uint32_t>(s.blocks);
  touch.block.x = static_cast<uint32_t>(s.threads);
  touch.args = {KernelArg::of_scalar(words), KernelArg::of_buffer("data")};
  if (s.hops >= 0) {
    p.buffers.push_back(index_buffer("next", chain_links()));
    touch.args = {KernelArg::of_scalar(kChainWords), KernelArg::of_buffer("next"), KernelArg::of_scalar(s.hops),
                  KernelArg::of_buffer("data")};
  }
  LaunchStep tick;
  tick.entry = "tick";
  tick.block.x = 32;
  tick.args = {KernelArg::of_buffer("count"), KernelArg::of_buffer("left")};
  p.steps = {touch, tick};
  p.outputs = {{"left", 1, Dtype::F32}};
  if (s.iterations == 0) {
    p.program = {PlanOp::fill("count", 1)};
    for (int k = 0; k < s.launches - 1; ++k) p.program.push_back(PlanOp::run(0));
    p.program.push_back(PlanOp::run(1));
    return p;
  }
  std::vector<PlanOp> body;
  if (s.fill) body.push_back(PlanOp::fill("data", 0));
  for (int k = 0; k < s.launches - 1; ++k) body.push_back(PlanOp::run(0));
  body.push_back(PlanOp::run(1));
  p.program = {PlanOp::fill("count", s.iterations), PlanOp::loop(std::move(body), "count", s.iterations + 1)};
  return p;
}

std::string label(const Shape& s) {
  return (s.iterations ? "loop x" + std::to_string(s.iterations) : std::string("straight")) + ", " +
         std::to_string(s.launches) + " launches" + (s.fill ? " + fill" : "") + ", " + std::to_string(s.blocks) +
         " blocks of " + std::to_string(s.threads) + (s.hops >= 0 ? ", " + std::to_string(s.hops) + " hops" : "");
}

}  // namespace
}  // namespace ktune

int main(int argc, char** argv) {
  using namespace ktune;
  std::string out;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--out" && i + 1 < argc) out = argv[++i];
    else {
      std::fprintf(stderr, "loop_launch_bench: unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  Measurer measurer(default_worker_path());
  if (!measurer.available()) {
    std::fprintf(stderr, "loop_launch_bench: no GPU: %s\n", measurer.device().why_absent.c_str());
    return 1;
  }
  const DeviceInfo device = measurer.device();
  const CompiledKernel kernel =
      NvrtcCompiler{}.compile(CompileRequest{kSource, {"touch", "chain", "tick"}, {}, device.arch()});
  if (!kernel.ok) {
    std::fprintf(stderr, "%s\n", kernel.log.c_str());
    return 1;
  }
  const int wide = 4 * device.sms;
  std::vector<Shape> shapes;
  for (int blocks : {1, wide}) {
    for (int k : {1, 2, 3, 4, 8}) shapes.push_back({0, k, false, blocks});
    for (int n : {1, 4, 16, 64})
      for (int k : {1, 2, 3, 4})
        for (bool fill : {false, true}) shapes.push_back({n, k, fill, blocks});
  }
  // A full wave of blocks of each size (2048 threads an SM), and one block, following chains.
  for (int threads : {64, 256, 1024})
    for (int hops : {0, 8, 32})
      for (int n : {1, 32}) shapes.push_back({n, 2, false, device.sms * 2048 / threads, threads, hops});
  for (int hops : {0, 8, 32})
    for (int n : {1, 32}) shapes.push_back({n, 2, false, 1, 32, hops});
  nlohmann::json rows = nlohmann::json::array();
  std::printf("device: %s\n| plan | median µs | iqr µs | runs |\n|---|---:|---:|---:|\n", device.name.c_str());
  for (const Shape& s : shapes) {
    Reference expected{{"left", {0}}};
    const Measurement m = measurer.measure(kernel, plan_of(s), expected, MeasureOptions{});
    if (m.status != MeasureStatus::Ok) {
      std::fprintf(stderr, "%s: %s: %s\n", label(s).c_str(), to_string(m.status), m.message.c_str());
      return 1;
    }
    std::printf("| %s | %.2f | %.2f | %d |\n", label(s).c_str(), m.median_us, m.iqr_us, m.count);
    rows.push_back({{"iterations", s.iterations},
                    {"launches", s.launches},
                    {"fill", s.fill},
                    {"blocks", s.blocks},
                    {"threads", s.threads},
                    {"hops", s.hops},
                    {"median_us", m.median_us},
                    {"iqr_us", m.iqr_us},
                    {"count", m.count}});
  }
  if (!out.empty()) std::ofstream(out) << nlohmann::json{{"device", device.name}, {"rows", rows}}.dump(1) << "\n";
  return 0;
}
