#pragma once
// Runs a launch plan's program (kernels/launch_plan.h) on a stream: its launches bound to the
// functions of a loaded module and to device addresses by buffer name. The measurement worker
// times it; the C++ client runs it on the user's own buffers. Tensor-map arguments are encoded
// over the table's addresses here (a new binding builds a new runner), and a launch in
// clusters goes through cuLaunchKernelEx. A program with loops runs as one
// CUDA graph whose loops the device tests (device_loop_graph.h) where the driver has
// conditional nodes; otherwise, or with KTUNE_LOOPS=host in the environment, the host runs
// each loop, reading its counter after every iteration.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gpu/buffer_table.h"
#include "gpu/cuda_resources.h"
#include "gpu/device_loop_graph.h"
#include "kernels/launch_plan.h"

namespace ktune {

class PlanRunner {
 public:
  // Checks every launch against its kernel (threads per block, dynamic shared memory) and
  // packs its arguments; `steps`, `module` and `table` must outlive the runner. An empty
  // `program` runs every step once, in order.
  PlanRunner(const CudaDriver& cu, const CudaModule& module, const std::vector<LaunchStep>& steps,
             std::vector<PlanOp> program, const BufferTable& table);

  // Enqueues the program on `stream`; returns once everything is enqueued (a loop the host
  // runs synchronises the stream to read its counter).
  void run(CUstream stream);

  // Whether the program's loops run on the device (false too for a program without loops).
  bool loops_on_device() const { return graph_ != nullptr; }

 private:
  // One argument's bytes: a scalar, an address, or a tensor map (128 bytes, 64-byte aligned
  // as CUtensorMap is). The launch reads each parameter's size from the kernel.
  struct alignas(64) Slot {
    unsigned char bytes[kTensorMapBytes];
  };
  struct Launch {
    CUfunction function = nullptr;
    const LaunchStep* step = nullptr;
    std::vector<Slot> slots;
  };

  // A window of a counter buffer, read in one transfer and valid until the next enqueue: a
  // level's loop test and the next level's grid sizes then cost one round trip, not several.
  struct CounterWindow {
    std::string buffer;  // empty: nothing valid
    uint64_t first = 0, words = 0;
  };
  static constexpr uint64_t kWindowWords = 256;

  Launch prepare_launch(const CudaModule& module, const LaunchStep& step) const;
  void enqueue(Launch& l, const LaunchStep& s, CUstream stream);
  GraphKernel graph_kernel(size_t launch, int sms);
  void build_graph();
  int32_t read_counter(CUstream stream, const std::string& buffer, uint32_t index);
  void run_ops(const std::vector<PlanOp>& ops, CUstream stream);

  const CudaDriver& cu_;
  const BufferTable& table_;
  std::vector<PlanOp> program_;
  std::vector<Launch> launches_;
  PinnedHostMemory window_memory_;
  CounterWindow window_;
  std::unique_ptr<DeviceLoopGraph> graph_;
};

}  // namespace ktune
