#pragma once
// Runs a launch plan's program (kernels/launch_plan.h) on a stream: its launches bound to the
// functions of a loaded module and to device addresses by buffer name. The measurement worker
// times it; the C++ client runs it on the user's own buffers. Loops wait for their counters.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gpu/cuda_resources.h"
#include "kernels/launch_plan.h"

namespace ktune {

// The device address and size of every buffer a plan names.
struct BufferTable {
  std::map<std::string, CUdeviceptr> address;
  std::map<std::string, size_t> size;
  std::vector<DeviceMemory> owned;  // what the table's owner allocated for it (scratch, outputs)

  CUdeviceptr at(const std::string& name) const;  // throws naming the missing buffer
};

class PlanRunner {
 public:
  // Checks every launch against its kernel (threads per block, dynamic shared memory) and
  // packs its arguments; `steps`, `module` and `table` must outlive the runner. An empty
  // `program` runs every step once, in order.
  PlanRunner(const CudaDriver& cu, const CudaModule& module, const std::vector<LaunchStep>& steps,
             std::vector<PlanOp> program, const BufferTable& table);

  // Enqueues the program on `stream`; returns once everything is enqueued (a loop's counter
  // reads synchronise the stream).
  void run(CUstream stream);

 private:
  struct Launch {
    CUfunction function = nullptr;
    const LaunchStep* step = nullptr;
    std::vector<uint64_t> slots;  // every argument's bytes; cuLaunchKernel reads its size from each
  };

  // A window of a counter buffer, read in one transfer and valid until the next enqueue: a
  // level's loop test and the next level's grid sizes then cost one round trip, not several.
  struct CounterWindow {
    std::string buffer;  // empty: nothing valid
    uint64_t first = 0, words = 0;
  };
  static constexpr uint64_t kWindowWords = 256;

  Launch prepare_launch(const CudaModule& module, const LaunchStep& step) const;
  int32_t read_counter(CUstream stream, const std::string& buffer, uint32_t index);
  void run_ops(const std::vector<PlanOp>& ops, CUstream stream, int32_t iteration);

  const CudaDriver& cu_;
  const BufferTable& table_;
  std::vector<PlanOp> program_;
  std::vector<Launch> launches_;
  PinnedHostMemory window_memory_;
  CounterWindow window_;
};

}  // namespace ktune
