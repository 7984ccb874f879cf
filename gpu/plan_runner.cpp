#include "gpu/plan_runner.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <variant>

#include "gpu/tensor_map.h"

namespace ktune {

PlanRunner::PlanRunner(const CudaDriver& cu, const CudaModule& module, const std::vector<LaunchStep>& steps,
                       std::vector<PlanOp> program, const BufferTable& table)
    : cu_(cu), table_(table), program_(std::move(program)), window_memory_(cu, kWindowWords * sizeof(int32_t)) {
  for (const LaunchStep& step : steps) launches_.push_back(prepare_launch(module, step));
  if (program_.empty())
    for (size_t i = 0; i < steps.size(); ++i) program_.push_back(PlanOp::run(i));
  build_graph();
}

namespace {

bool has_loop(const std::vector<PlanOp>& program) {
  for (const PlanOp& op : program)
    if (op.kind == PlanOp::Kind::Loop) return true;
  return false;
}

bool host_loops_asked() {
  const char* loops = std::getenv("KTUNE_LOOPS");
  return loops && std::string(loops) == "host";
}

}  // namespace

// A program with loops becomes a graph the device runs; where the driver cannot build it, the
// host runs the loops (said once on stderr, since every measurement would say it again).
void PlanRunner::build_graph() {
  if (!has_loop(program_) || host_loops_asked() || !cu_.has_conditional_graphs()) return;
  try {
    CUdevice device = 0;
    int sms = 0;
    cu_.check(cu_.ctx_get_device(&device), "reading the context's device");
    cu_.check(cu_.device_get_attribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device), "counting the SMs");
    graph_ = std::make_unique<DeviceLoopGraph>(cu_, program_, table_,
                                               [this, sms](size_t i) { return graph_kernel(i, sms); });
  } catch (const std::exception& e) {
    static std::once_flag said;
    std::call_once(said, [&] { std::cerr << "ktune: loops run on the host: " << e.what() << "\n"; });
  }
}

// Launch i as a node of the graph: sized from a counter, one wave of blocks (as many as the
// GPU holds at once on its `sms` multiprocessors), which stride over the counter's items.
GraphKernel PlanRunner::graph_kernel(size_t launch, int sms) {
  Launch& l = launches_.at(launch);
  const LaunchStep& s = *l.step;
  int per_sm = 0;
  cu_.check(cu_.occupancy_max_active_blocks(&per_sm, l.function, static_cast<int>(s.block.x * s.block.y * s.block.z),
                                            s.shared_bytes),
            "reading the occupancy of '" + s.entry + "'");
  const auto wave = static_cast<uint32_t>(std::max(1, per_sm) * std::max(1, sms));
  const LaunchStep run = *resolve_launch(
      s, [](const std::string&, uint32_t) { return 0; }, CounterGrids::Wave, wave);
  GraphKernel k{l.function, run.grid, run.block, run.cluster, run.shared_bytes, {}};
  for (Slot& slot : l.slots) k.params.push_back(slot.bytes);
  return k;
}

PlanRunner::Launch PlanRunner::prepare_launch(const CudaModule& module, const LaunchStep& step) const {
  Launch l;
  l.step = &step;
  l.function = module.function(step.entry);
  int max_threads = 0;
  cu_.check(cu_.func_get_attribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, l.function),
            "reading the block size limit of '" + step.entry + "'");
  const uint64_t threads = uint64_t{step.block.x} * step.block.y * step.block.z;
  if (threads > static_cast<uint64_t>(max_threads)) {
    throw std::runtime_error("kernel '" + step.entry + "' can run at most " + std::to_string(max_threads) +
                             " threads per block with its register use; the plan asks for " + std::to_string(threads));
  }
  // Past 48 KB a block needs the kernel's leave, and the kernel's static shared memory counts
  // too (GEMM's 48 KB ring beside two ints of its own failed to launch): asked whenever the
  // plan gives dynamic shared memory.
  if (step.shared_bytes > 0) {
    cu_.check(cu_.func_set_attribute(l.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                     static_cast<int>(step.shared_bytes)),
              "allowing " + std::to_string(step.shared_bytes) + " bytes of dynamic shared memory");
  }
  l.slots.resize(step.args.size());
  for (size_t a = 0; a < step.args.size(); ++a) {
    const KernelArg& arg = step.args[a];
    if (arg.tensor_map) {
      const CUtensorMap map =
          encode_tensor_map(cu_, *arg.tensor_map, table_.at(arg.tensor_map->buffer), table_.size.at(arg.tensor_map->buffer));
      std::memcpy(l.slots[a].bytes, &map, sizeof map);
    } else if (!arg.buffer.empty()) {
      const CUdeviceptr address = table_.at(arg.buffer);
      std::memcpy(l.slots[a].bytes, &address, sizeof address);
    } else {
      std::visit([&](auto v) { std::memcpy(l.slots[a].bytes, &v, sizeof v); }, arg.scalar);
    }
  }
  return l;
}

// The int32 at `index` of a buffer, once the stream has finished what it was given.
int32_t PlanRunner::read_counter(CUstream stream, const std::string& buffer, uint32_t index) {
  const uint64_t words = table_.size.at(buffer) / sizeof(int32_t);
  if (index >= words) return 0;
  const bool cached = window_.buffer == buffer && index >= window_.first && index < window_.first + window_.words;
  if (!cached) {
    // Counters sit at the front of their buffers: read the front, or a window from `index`.
    const uint64_t first = index < kWindowWords ? 0 : index;
    const uint64_t count = std::min(kWindowWords, words - first);
    cu_.check(cu_.memcpy_dtoh_async(window_memory_.get(), table_.at(buffer) + first * sizeof(int32_t),
                                    count * sizeof(int32_t), stream),
              "reading a counter");
    cu_.check(cu_.stream_synchronize(stream), "waiting for a counter");
    window_ = {buffer, first, count};
  }
  int32_t value = 0;
  std::memcpy(&value, static_cast<const char*>(window_memory_.get()) + (index - window_.first) * sizeof value,
              sizeof value);
  return value;
}

// A launch in clusters needs cuLaunchKernelEx's attribute; any other takes the plain call.
void PlanRunner::enqueue(Launch& l, const LaunchStep& s, CUstream stream) {
  std::vector<void*> params;
  for (Slot& slot : l.slots) params.push_back(slot.bytes);
  if (!s.clustered()) {
    cu_.check(cu_.launch_kernel(l.function, s.grid.x, s.grid.y, s.grid.z, s.block.x, s.block.y, s.block.z,
                                s.shared_bytes, stream, params.data(), nullptr),
              "launching '" + s.entry + "'");
    return;
  }
  CUlaunchAttribute cluster{};
  cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  cluster.value.clusterDim.x = s.cluster.x;
  cluster.value.clusterDim.y = s.cluster.y;
  cluster.value.clusterDim.z = s.cluster.z;
  CUlaunchConfig config{};
  config.gridDimX = s.grid.x;
  config.gridDimY = s.grid.y;
  config.gridDimZ = s.grid.z;
  config.blockDimX = s.block.x;
  config.blockDimY = s.block.y;
  config.blockDimZ = s.block.z;
  config.sharedMemBytes = s.shared_bytes;
  config.hStream = stream;
  config.attrs = &cluster;
  config.numAttrs = 1;
  cu_.check(cu_.launch_kernel_ex(&config, l.function, params.data(), nullptr),
            "launching '" + s.entry + "' in clusters of " + std::to_string(s.cluster.x * s.cluster.y * s.cluster.z));
}

void PlanRunner::run(CUstream stream) {
  if (graph_) {
    graph_->launch(stream);
    window_ = {};
    return;
  }
  run_ops(program_, stream);
}

void PlanRunner::run_ops(const std::vector<PlanOp>& ops, CUstream stream) {
  const auto counter = [&](const std::string& buffer, uint32_t index) { return read_counter(stream, buffer, index); };
  for (const PlanOp& op : ops) {
    switch (op.kind) {
      case PlanOp::Kind::Launch: {
        Launch& l = launches_.at(op.launch);
        const std::optional<LaunchStep> s = resolve_launch(*l.step, counter);
        if (!s) break;
        enqueue(l, *s, stream);
        window_ = {};  // the stream may change any buffer from here on
        break;
      }
      case PlanOp::Kind::Fill:
        cu_.check(cu_.memset_d32_async(table_.at(op.buffer), op.word, table_.size.at(op.buffer) / 4, stream),
                  "filling '" + op.buffer + "'");
        window_ = {};
        break;
      case PlanOp::Kind::Copy:
        cu_.check(cu_.memcpy_dtod_async(table_.at(op.buffer), table_.at(op.from), table_.size.at(op.from), stream),
                  "copying '" + op.from + "' to '" + op.buffer + "'");
        window_ = {};
        break;
      case PlanOp::Kind::Loop:
        for (int i = 0; i < op.max_iterations; ++i) {
          run_ops(op.body, stream);
          if (read_counter(stream, op.until_zero, 0) == 0) break;
        }
        break;
    }
  }
}

}  // namespace ktune
