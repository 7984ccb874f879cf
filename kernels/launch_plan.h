#pragma once
// What runs on the device for one configuration on one workload: the buffers (inputs with
// their bytes, scratch and outputs by size), the launches, and, for iterative algorithms, a
// program of launches, fills, copies and loops over them. The measurement worker times the
// whole plan as one measurement; the emulator follows it on the workload's data.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "kernels/host_bytes.h"
#include "kernels/problem.h"

namespace ktune {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

// A TMA descriptor (the driver's 128-byte CUtensorMap) over a named device buffer, for kernels
// that load tiles with cp.async.bulk.tensor: whoever runs the plan encodes it once the buffer
// has its address (cuTensorMapEncodeTiled) and passes it by value. Dimensions run innermost
// first; `strides` are the byte strides of dimensions 1 and up (the innermost is dense); `box`
// is the tile one copy moves; elements outside the dimensions load as zeros.
struct TensorMapArg {
  std::string buffer;
  Dtype dtype = Dtype::F32;
  std::vector<uint64_t> dims;
  std::vector<uint64_t> strides;
  std::vector<uint32_t> box;
  uint32_t swizzle_bytes = 0;  // 0 (none), 32, 64 or 128: the span of the shared-memory swizzle

  bool operator==(const TensorMapArg& o) const {
    return buffer == o.buffer && dtype == o.dtype && dims == o.dims && strides == o.strides && box == o.box &&
           swizzle_bytes == o.swizzle_bytes;
  }
};
constexpr size_t kTensorMapBytes = 128;

// A kernel argument: a named device buffer, a scalar passed by value, or a tensor map over a
// buffer (`buffer` then empty: the kernel gets the descriptor, not the address). Arguments are
// the same in every iteration of a loop (what changes, such as an iteration number for
// ping-pong buffers, lives in device memory), so that a loop can run on the device.
struct KernelArg {
  std::string buffer;  // empty for scalars and tensor maps
  std::variant<int32_t, int64_t, float, double> scalar{int32_t{0}};
  std::optional<TensorMapArg> tensor_map{};

  static KernelArg of_buffer(std::string name) { return {std::move(name), int32_t{0}}; }
  template <typename T>
  static KernelArg of_scalar(T v) { return {"", v}; }
  static KernelArg of_tensor_map(TensorMapArg map) { return {"", int32_t{0}, std::move(map)}; }
};

// A grid sized on the device: x = ceil(counter / items_per_block), where the counter is the
// int32 at element `index` of `buffer` when the launch runs (a frontier's length). A launch
// whose counter is 0 does not run. The kernel must read the counter itself and stride over its
// items (block b takes tiles b, b + gridDim.x, ...): a loop the device runs launches one wave
// of blocks whatever the counter.
struct GridFromCounter {
  std::string buffer;
  uint32_t index = 0;
  uint32_t items_per_block = 1;
};

struct LaunchStep {
  std::string entry;
  Dim3 grid, block;  // grid.x is the most blocks when grid_from is set (buffers are sized for it)
  uint32_t shared_bytes = 0;
  std::vector<KernelArg> args;
  std::optional<GridFromCounter> grid_from;
  // CTAs a thread-block cluster (sm_90), the grid a multiple of it: 1 x 1 x 1 launches without
  // one. Last, so that the families' aggregate initialisers need not name it.
  Dim3 cluster{};

  bool clustered() const { return cluster.x * cluster.y * cluster.z > 1; }
  // Whether any argument is a tensor map (which only the driver encodes).
  bool has_tensor_maps() const;
};

// One operation of a plan's program: run steps[launch], fill a buffer with a 32-bit word,
// copy one buffer over another of the same size, or loop over a body until the int32 at
// element 0 of `until_zero` is 0 after an iteration (at most max_iterations times).
struct PlanOp {
  enum class Kind { Launch, Fill, Copy, Loop };
  Kind kind = Kind::Launch;
  size_t launch = 0;           // Launch
  std::string buffer;          // Fill: the buffer; Copy: the destination
  uint32_t word = 0;           // Fill
  std::string from;            // Copy
  std::vector<PlanOp> body;    // Loop
  std::string until_zero;      // Loop
  int max_iterations = 0;      // Loop

  static PlanOp run(size_t launch_index);
  static PlanOp fill(std::string buffer, uint32_t word);
  static PlanOp copy(std::string from, std::string to);
  static PlanOp loop(std::vector<PlanOp> body, std::string until_zero, int max_iterations);
};

// The nodes (launches, fills, copies) of a program outside its loops, and those one iteration
// of a loop runs (the largest loop's body, nested loops once): what an estimate charges as
// launches, with its expected iterations (WorkEstimate::launches, loop_iterations).
struct PlanNodes {
  int64_t outside = 0, per_iteration = 0;

  // outside + per_iteration x iterations (at most 1e9: a loop's bound, not its expected run).
  int32_t launches(double loop_iterations) const;
};
PlanNodes plan_nodes(const std::vector<PlanOp>& program);

// A buffer the device needs: inputs carry bytes to upload; scratch and output carry a size.
struct DeviceBuffer {
  std::string name;
  HostBytes bytes;  // empty for scratch/output
  size_t size = 0;  // bytes on the device
};

// A buffer the plan's answer is read from after it runs.
struct PlanOutput {
  std::string buffer;
  size_t elements = 0;
  Dtype dtype = Dtype::F32;
  // 0: the reference holds every element. Otherwise it holds this many values of a sample of
  // the elements (a dense product too large for a CPU reference), and the family's verifier
  // knows which from the plan's check_data.
  size_t sampled = 0;
  // Element ranges [first, second) the check reads, in order: the verifier gets their
  // concatenation instead of the whole output, so a sampled output of gigabytes is not read
  // back. Empty: the whole output.
  std::vector<std::pair<size_t, size_t>> read_ranges{};

  size_t reference_elements() const { return sampled > 0 ? sampled : elements; }
  // How many elements the verifier gets (the ranges' total, or every element).
  size_t read_elements() const;
};

// A run of a program's top-level ops that repeats alike work: `units` runs of `unit` ops from
// op `first` (SSSP's traversal per source). Execution ignores it; the emulator follows as many
// units as its instruction budget allows and counts the others as repeats of those, where it
// would otherwise give the whole program up.
struct AlikeUnits {
  size_t first = 0;
  size_t unit = 0;
  size_t units = 0;
};

// Runs `step` (its grid resolved) on `memory` as all of its blocks would: the launch's native
// twin (kernels/launch_twin.h, where PlanMemory is).
class PlanMemory;
using LaunchTwin = std::function<void(const LaunchStep& step, PlanMemory& memory)>;
using LaunchTwins = std::map<std::string, LaunchTwin>;  // by kernel entry

struct LaunchPlan {
  std::string family;  // whose verifier checks the outputs (empty: the default tolerance)
  Problem problem;
  std::vector<DeviceBuffer> buffers;
  std::vector<PlanOutput> outputs;
  std::vector<LaunchStep> steps;
  // Empty: the steps run once in order. Otherwise the order they run in, with control flow.
  std::vector<PlanOp> program;
  std::optional<AlikeUnits> alike;  // within `program`'s top-level ops
  // Host data the family's verifier reads besides the reference (SpMV: row lengths).
  std::map<std::string, HostBytes> check_data;
  double prepare_seconds = 0;  // host preprocessing cost of the format
  // Host twins of the kernels a program's loops launch, for models that follow the program
  // (never sent to the device).
  LaunchTwins twins;

  const DeviceBuffer* buffer(const std::string& name) const;  // nullptr when absent
  // The program as run: `program`, or every step once in order.
  std::vector<PlanOp> effective_program() const;
};

// The reference answer, one array of doubles per output buffer, by name.
using Reference = std::map<std::string, std::vector<double>>;

// How a launch sized from a counter runs: with the grid its counter asks for, read on the host
// (skipped at 0), or, in a loop the device runs without the host, with one wave of blocks that
// stride over the counter's items.
enum class CounterGrids { FromCounter, Wave };

// `step` as it runs: its grid sized from its counter, read with `counter(buffer, index)`;
// nothing when the counter is 0 (the launch is skipped). With CounterGrids::Wave, at most
// `wave` blocks (and never more than the step's grid). Shared by the worker, the interpreter
// and the emulator.
std::optional<LaunchStep> resolve_launch(const LaunchStep& step,
                                         const std::function<int32_t(const std::string&, uint32_t)>& counter,
                                         CounterGrids grids = CounterGrids::FromCounter, uint32_t wave = 1);

// Throws InputError when `plan` names a buffer it lacks, a launch it does not have, a loop
// without a stopping buffer or bound, a tensor map whose shape does not hold together, or a
// grid that is not a whole number of clusters.
void check_plan(const LaunchPlan& plan);

nlohmann::json program_to_json(const std::vector<PlanOp>& program);
// A tensor map's description (not its encoded bytes): what the worker protocol and a stored
// answer carry.
nlohmann::json tensor_map_to_json(const TensorMapArg& m);
TensorMapArg tensor_map_from_json(const nlohmann::json& j);  // throws nlohmann::json::exception, InputError
std::vector<PlanOp> program_from_json(const nlohmann::json& j);  // throws nlohmann::json::exception

}  // namespace ktune
