#pragma once
// The interface every kernel family implements (DESIGN.md, "Kernel families"), and the one
// registry of them. A family turns (workload, problem, configuration) into specialised CUDA
// source, the device inputs it needs and the launches that run it; it owns its CPU reference,
// the check of its outputs, its vendor baselines, what the emulator weighs its blocks by, and
// the version of its templates. Nothing outside kernels/<family>/ names a family or its buffers.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/launch_plan.h"
#include "kernels/output_check.h"
#include "kernels/parameter_space.h"
#include "kernels/problem.h"
#include "kernels/vendor_call.h"
#include "workload/workload.h"

namespace ktune {

struct KernelSource {
  std::string code;                  // CUDA C++ with parameters as -D constants
  std::vector<std::string> entries;  // extern "C" kernel names, in launch order
  std::vector<std::string> options;  // NVRTC options besides the architecture
  // Uses instructions of one architecture only (sm_90a's wgmma): compiled for the device's
  // architecture with its "a" suffix, which runs on that architecture alone.
  bool arch_specific = false;
};

// The architecture `s` compiles for on a device of `device_arch` (e.g. "sm_90").
inline std::string compile_arch(const KernelSource& s, const std::string& device_arch) {
  return s.arch_specific ? device_arch + "a" : device_arch;
}

// What the first cost model needs to know of one configuration on one workload.
struct SequentialStep {
  double share = 0;        // of warp_work's rounds
  double chain_rounds = 0;  // rounds of its slowest lane, one after another
};

struct WorkEstimate {
  double dram_bytes = 0;               // bytes moved, gather inefficiency included
  // Work units per warp (loop iterations of the slowest lane), in single precision: a list holds
  // a value per warp of the grid (millions on a large graph) and a tune estimates side by side.
  std::vector<float> warp_work;
  // warp_work runs this many times, one copy after another, without being stored again: a grid
  // whose y dimension repeats its x blocks (SpMM's K tiles), dispatched x first.
  int64_t warp_work_repeats = 1;
  int32_t threads_per_block = 0;
  // What a block holds where the family knows better than the compiler's count: shared memory
  // asked for at launch (a ring of dynamic stages, which ptxas does not see), and registers
  // before anything is compiled (the ranking otherwise assumes a typical count). The occupancy
  // takes the larger of these and the compiled (or assumed) usage; 0: nothing to add.
  int64_t shared_bytes_per_block = 0;
  int32_t registers_per_thread = 0;
  int64_t blocks = 0;
  // Every kernel, fill and copy the run executes, and the iterations of its device loops (0: a
  // straight plan, launched on a stream); plan_nodes() counts a program's nodes.
  int32_t launches = 1;
  double loop_iterations = 0;
  // Each work unit waits on a load whose address an earlier load gave (a graph expansion's
  // round: the edge's head is known only once its index is read): a unit then costs at least
  // an L2 round trip, however few bytes it moves.
  bool unit_waits_on_load = false;
  // Independent loads a warp issues together where the model counts one (a thread's batch of
  // edges): its bytes in flight grow with them.
  double loads_in_flight = 1;
  // Of dram_bytes, those gathered at random as whole sectors from one array of gather_footprint
  // bytes: where L2 holds that array, DRAM moves it once instead.
  // L2 serves them a request each, at its tag pipe's rate, even where it holds the array.
  double gather_bytes = 0;
  double gather_footprint = 0;
  // Of gather_bytes, those an atomic updates (a scatter): L2 reads and writes each sector, a
  // second request at its tag pipe.
  double scattered_atomic_bytes = 0;
  // Atomics on one address over the run (each block's share of a global sum): the L2 slice
  // that owns the address serves them one at a time.
  double serial_atomics = 0;
  // Compare-and-swaps that queue behind another on one address, summed over the rounds of
  // threads that run together (kernels/cc/cc_contention.h): each costs a launch
  // GpuSpec::queued_cas_ns on top of its work.
  double queued_swaps = 0;
  // Blocks the run's launches dispatch in all, where many short blocks make the block
  // scheduler the limit (0: not counted).
  double blocks_dispatched = 0;
  // Launches that run one after another (a BFS level), where the work is split among them
  // unevenly: each takes its share of warp_work's time or the chain of its slowest lane (the
  // thread holding a level's largest vertex), whichever is longer, as no number of SMs shortens a
  // chain. The steps run step_repeats times in turn (once a source), their shares summing to one
  // repeat's. Empty: warp_work runs as one.
  std::vector<SequentialStep> steps;
  int64_t step_repeats = 1;
  // The rounds read lines the run has not touched before (a traversal expands each vertex
  // once, union-find reads each label's root once, and every run starts with L2 flushed): each
  // waits on DRAM, not L2.
  bool rounds_read_dram = false;
  // Each block loads, computes and stores once, without a pipeline: its wait on its loads and
  // its work follow one another, so the blocks' chains add to the DRAM time rather than hide
  // under it.
  bool single_stage = false;
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

// Host data a verifier reads besides the reference, by name (LaunchPlan::check_data).
using CheckData = std::map<std::string, std::string_view>;

class KernelFamily {
 public:
  virtual ~KernelFamily() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  virtual WorkloadKind workload_kind() const = 0;

  // Problem parameters and the precisions the family computes in; a request outside them is
  // refused (4xx) before anything is loaded. Defaults: no parameters; f32 and f64.
  virtual ProblemSchema problem_schema() const { return {}; }
  virtual std::vector<Precision> precisions() const;
  // The problem against the loaded workload (a vertex beyond it, operands too large for any
  // device), before anything is allocated for it. Throws InputError or LimitError.
  virtual void check_problem(const Workload& w, const Problem& p) const {}
  // Whether the problem reads the workload's values; a family that does not is given a
  // workload without them (a graph traversal reads only the edges).
  virtual bool reads_values(const Problem& p) const { return true; }

  virtual ParameterSpace space(const Problem& p) const = 0;
  virtual KernelSource source(const Problem& p, const Config& config) const = 0;
  // Launch geometry and arguments; cheap (no copies of the workload).
  virtual std::vector<LaunchStep> launches(const Workload& w, const Problem& p, const Config& config) const = 0;
  // The order the launches run in with their control flow (kernels/launch_plan.h), for
  // families whose plans loop; empty (the default): each launch once, in order.
  virtual std::vector<PlanOp> program(const Workload& w, const Problem& p, const Config& config) const { return {}; }
  // The device-ready format with its inputs, the launches (and program) and the outputs.
  virtual LaunchPlan prepare(const Workload& w, const Problem& p, const Config& config) const = 0;
  // prepare() for one more configuration of a tune that already holds `previous` (same
  // workload and problem): a family reuses its configuration-independent inputs rather than
  // converting (and later hashing) a large matrix again. The default prepares from scratch.
  virtual LaunchPlan prepare_next(const Workload& w, const Problem& p, const Config& config,
                                  const LaunchPlan& previous) const {
    return prepare(w, p, config);
  }

  // The exact answer in double precision for every output, from the same inputs prepare() uploads.
  virtual Reference reference(const Workload& w, const Problem& p) const = 0;
  // Whether `got` (one output's bytes as the device left them) answers the problem. Runs in
  // the measurement worker. The default allows a reduction of one product per element.
  virtual Verdict verify(const Problem& p, const PlanOutput& output, std::string_view got,
                         const std::vector<double>& expected, const CheckData& data) const;

  // The vendor library calls the family is measured against (none by default), and the plan
  // whose buffers they read and write (by default the plan of the space's first configuration).
  virtual std::vector<VendorCall> vendor_calls(const Workload& w, const Problem& p) const { return {}; }
  virtual LaunchPlan vendor_plan(const Workload& w, const Problem& p) const;

  virtual WorkEstimate estimate(const Workload& w, const Problem& p, const Config& config) const = 0;
  // Whether the PTX interpreter runs this configuration's kernels. Where it cannot (tensor-core
  // instructions it lacks), the walk and the ranking take the first cost model's answer without
  // compiling the configuration for the emulator first.
  virtual bool emulable(const Problem& p, const Config& config) const { return true; }
  virtual double flops(const Workload& w, const Problem& p) const = 0;
  virtual double min_bytes(const Workload& w, const Problem& p) const = 0;
  // The emulator's work per block of one launch of `plan` (and each block's longest thread's
  // share, its span), when the family knows better than the first model's estimate.
  virtual std::optional<std::vector<double>> block_weights(const LaunchPlan& plan, const LaunchStep& step) const {
    return std::nullopt;
  }
  virtual std::optional<std::vector<double>> block_spans(const LaunchPlan& plan, const LaunchStep& step) const {
    return std::nullopt;
  }
  // The model-driven walk's moves; a family without any is simply not walked.
  virtual CanonicalMoves canonical_moves(const Problem& p) const { return {}; }
  // Its CUDA templates: their hash versions its stored answers (family_version).
  virtual std::vector<std::string_view> templates() const = 0;
};

// SHA-256 over a family's templates: an answer stored under another version is stale.
std::string family_version(const KernelFamily& family);

// A request's problem made canonical for `family`: its schema's validation and a precision it
// accepts. InputError naming what it accepts otherwise.
Problem make_problem(const KernelFamily& family, const nlohmann::json& params, const Precision& precision);

// All families known to this build, and lookup by name (nullptr when unknown).
const std::vector<std::unique_ptr<KernelFamily>>& all_families();
const KernelFamily* find_family(const std::string& name);

}  // namespace ktune
