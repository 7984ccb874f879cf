#include "search/explanation.h"

#include "model/saake/saake_prediction.h"
#include "search/first_model_oracle.h"
#include "workload/input_error.h"

namespace ktune {

CandidateEmulationOptions tune_emulation_options() {
  CandidateEmulationOptions options;
  options.max_program_nonzeros = uint64_t{1} << 23;
  return options;
}

std::optional<CandidatePrediction> emulate_compiled(const KernelFamily& family, const Workload& workload,
                                                    const Problem& problem, const Config& config, const CompiledKernel& kernel,
                                                    const GpuSpec& gpu, bool sensitivity, std::string* why) {
  try {
    if (!kernel.ok) throw InputError("the candidate did not compile");
    CandidateEmulationOptions options = tune_emulation_options();
    options.sensitivity = sensitivity;
    const LaunchPlan plan = family.prepare(workload, problem, config);
    return emulate_candidate(family, workload, problem, config, plan, kernel, gpu, options);
  } catch (const InputError& e) {
    if (why) *why = e.what();
    return std::nullopt;
  }
}

Explanation explain_candidate(const KernelFamily& family, const Workload& workload, const Problem& problem,
                              const CandidateOutcome& best, const GpuSpec& gpu, const TunerLog& log,
                              const std::optional<std::string>& not_emulable) {
  Explanation x;
  std::string why = not_emulable ? *not_emulable : "not compiled";
  std::optional<CandidatePrediction> p;
  if (best.kernel && !not_emulable) p = emulate_compiled(family, workload, problem, best.config, *best.kernel, gpu, true, &why);
  if (p) {
    x.predicted_us = p->microseconds;
    x.resource = resource_name(p->bottleneck);
    x.kind = bound_kind_name(p->bottleneck_kind);
    x.model = "emulator";
    x.sensitivity = sensitivity_json(*p);
    return x;
  }
  if (log) log("emulator: cannot explain " + best.config_key + ", answering with the first cost model: " + why);
  const WalkBottleneck b = first_model_bottleneck(best.prediction);
  x.predicted_us = best.prediction.time_us;
  x.resource = b.resource;
  x.kind = b.kind == WalkBottleneckKind::Latency ? "latency" : "throughput";
  x.model = "first_model";
  return x;
}

}  // namespace ktune
