#pragma once
// The interface every kernel family implements (DESIGN.md, "Kernel families").
// A family turns (workload, configuration, dtype) into specialised CUDA source, the device
// inputs it needs and the launches that run it; it also owns the CPU reference answer.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "kernels/host_bytes.h"
#include "kernels/parameter_space.h"
#include "workload/workload.h"

namespace ktune {

struct KernelSource {
  std::string code;                  // CUDA C++ with parameters as -D constants
  std::vector<std::string> entries;  // extern "C" kernel names, in launch order
  std::vector<std::string> options;  // NVRTC options besides the architecture
};

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

// A kernel argument: a named device buffer, or a scalar passed by value.
struct KernelArg {
  std::string buffer;  // empty for scalars
  std::variant<int32_t, int64_t, float, double> scalar{int32_t{0}};

  static KernelArg of_buffer(std::string name) { return {std::move(name), int32_t{0}}; }
  template <typename T>
  static KernelArg of_scalar(T v) { return {"", v}; }
};

struct LaunchStep {
  std::string entry;
  Dim3 grid, block;
  uint32_t shared_bytes = 0;
  std::vector<KernelArg> args;
};

// A buffer the device needs: inputs carry bytes to upload; scratch and output carry a size.
struct DeviceBuffer {
  std::string name;
  HostBytes bytes;               // empty for scratch/output
  size_t size = 0;               // bytes on the device
};

struct LaunchPlan {
  std::vector<DeviceBuffer> buffers;
  std::string output;               // name of the buffer holding the result
  size_t output_elements = 0;
  std::vector<LaunchStep> steps;    // run in order on one stream
  double prepare_seconds = 0;       // host preprocessing cost of the format
};

// What the first cost model needs to know of one configuration on one workload.
struct WorkEstimate {
  double dram_bytes = 0;               // bytes moved, gather inefficiency included
  std::vector<double> warp_work;       // work units per warp (loop iterations of the slowest lane)
  int32_t threads_per_block = 0;
  int64_t blocks = 0;
  int32_t launches = 1;
};

// A canonical direction of the model-driven walk (SAAKE, digest-000 §2.9): thread-block
// reshaping, thread or block coarsening, unrolling. `step` takes one unit (factor-2) step
// from a configuration, or says nothing when that leaves the space.
struct CanonicalDirection {
  std::string name;  // e.g. "block"
  std::string kind;  // "reshape" | "coarsen" | "unroll"
  std::function<std::optional<Config>(const Config&)> step;
};

// Where the walk starts (one "initial kernel" per discrete choice the directions do not
// cross, e.g. one per SpMV schedule) and the directions it moves along.
struct CanonicalMoves {
  std::vector<Config> starts;
  std::vector<CanonicalDirection> directions;
};

class KernelFamily {
 public:
  virtual ~KernelFamily() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  virtual WorkloadKind workload_kind() const = 0;
  virtual ParameterSpace space() const = 0;
  virtual KernelSource source(const Config& config, Dtype dtype) const = 0;
  // Launch geometry and arguments; cheap (no copies of the workload).
  virtual std::vector<LaunchStep> launches(const Workload& w, const Config& config) const = 0;
  // The device-ready format with its inputs (including the x vector) and the launches.
  virtual LaunchPlan prepare(const Workload& w, const Config& config, Dtype dtype) const = 0;
  // prepare() for one more configuration of a tune that already holds `previous` (same workload,
  // same dtype): a family reuses its configuration-independent inputs rather than converting
  // (and later hashing) a large matrix again. The default prepares from scratch.
  virtual LaunchPlan prepare_next(const Workload& w, const Config& config, Dtype dtype,
                                  const LaunchPlan& previous) const {
    return prepare(w, config, dtype);
  }
  // The exact answer in double precision, from the same inputs prepare() uploads.
  virtual std::vector<double> reference(const Workload& w) const = 0;
  virtual WorkEstimate estimate(const Workload& w, const Config& config, Dtype dtype) const = 0;
  virtual double flops(const Workload& w) const = 0;
  virtual double min_bytes(const Workload& w, Dtype dtype) const = 0;
  // The model-driven walk's moves; a family without any is simply not walked.
  virtual CanonicalMoves canonical_moves() const { return {}; }
};

// All families known to this build, and lookup by name (nullptr when unknown).
const std::vector<std::unique_ptr<KernelFamily>>& all_families();
const KernelFamily* find_family(const std::string& name);

}  // namespace ktune
