#include "server/tune_answer.h"

#include <chrono>
#include <cmath>
#include <ctime>
#include <variant>

#include "search/first_model_oracle.h"

namespace ktune {
namespace {

nlohmann::json dim(const Dim3& d) { return {d.x, d.y, d.z}; }

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return stamp;
}

// Family, parameters, source and compile options of one configuration.
nlohmann::json describe_config(const KernelFamily& family, const Problem& problem, const Config& config,
                               const AnswerContext& context) {
  const ParameterSpace space = family.space(problem);
  const CompileRequest req = context.tuner->compile_request(family, problem, config);
  nlohmann::json parameters = space.to_json(config);
  nlohmann::json j;
  j["kernel"] = family.name();
  j["family"] = family.name();
  j["problem"] = problem.params;
  j["dtype"] = to_string(problem.precision);
  j["schedule"] = parameters.value("schedule", nlohmann::json());
  j["parameters"] = parameters;
  j["config_key"] = space.canonical(config);
  j["source_code"] = req.code;
  j["entry"] = req.entries;
  nlohmann::json options = req.options;
  options.push_back("--gpu-architecture=" + req.arch);
  j["compile_options"] = options;
  j["provenance"] = {{"service_version", service_version()},
                     {"nvrtc_version", context.nvrtc_version},
                     {"device_fingerprint", context.device_fingerprint},
                     {"kernel_version", family_version(family)},
                     {"created_at", utc_now()},
                     {"job", context.job_id}};
  return j;
}

// The host work the configuration's format costs once per matrix (a partition, a tiling, a
// SELL form), and after how many calls the time it saves over the fastest vendor call has
// paid for it: null when it never does (not faster, or not measured against a vendor).
nlohmann::json preprocessing(double seconds, const TuneOutcome& outcome) {
  nlohmann::json p = {{"seconds", seconds}, {"pays_back_after_calls", nullptr}};
  const CandidateOutcome& best = *outcome.best;
  if (!best.measured_ok()) return p;
  double vendor_us = 0;
  for (const VendorTiming& v : outcome.vendor)
    if (v.measurement.status == MeasureStatus::Ok && (vendor_us == 0 || v.measurement.median_us < vendor_us))
      vendor_us = v.measurement.median_us;
  const double saved_us = vendor_us - best.measurement->median_us;
  if (saved_us > 0) p["pays_back_after_calls"] = std::ceil(seconds * 1e6 / saved_us);
  return p;
}

}  // namespace

std::string service_version() { return KTUNE_VERSION; }

nlohmann::json build_tune_answer(const KernelFamily& family, const Workload& workload, const Signature& signature,
                                 const Problem& problem, const TuneOutcome& outcome, const AnswerContext& context) {
  const CandidateOutcome& best = *outcome.best;
  nlohmann::json j = describe_config(family, problem, best.config, context);
  j["signature"] = signature.exact;
  nlohmann::json launch = nlohmann::json::array();
  for (const LaunchStep& s : family.launches(workload, problem, best.config)) {
    // The arguments in order: a named array of the format the configuration reads (CSR's
    // row_ptr, or SELL-32's slice_ptr, ...), or a scalar's value.
    nlohmann::json args = nlohmann::json::array();
    for (const KernelArg& a : s.args) {
      if (a.tensor_map) args.push_back({{"tensor_map", tensor_map_to_json(*a.tensor_map)}});
      else if (!a.buffer.empty()) args.push_back({{"buffer", a.buffer}});
      else std::visit([&args](auto v) { args.push_back({{"scalar", v}}); }, a.scalar);
    }
    nlohmann::json step = {{"entry", s.entry}, {"grid", dim(s.grid)}, {"block", dim(s.block)},
                           {"shared_bytes", s.shared_bytes}, {"args", args}};
    if (s.clustered()) step["cluster"] = dim(s.cluster);  // thread-block clusters: absent without
    if (s.grid_from)
      step["grid_from"] = {{"buffer", s.grid_from->buffer}, {"index", s.grid_from->index},
                           {"items_per_block", s.grid_from->items_per_block}};
    launch.push_back(step);
  }
  j["launch"] = launch;
  // Control flow, for the families whose plans loop (launch[i] by index): absent otherwise.
  if (const std::vector<PlanOp> program = family.program(workload, problem, best.config); !program.empty())
    j["program"] = program_to_json(program);
  // Why it is fast: the emulator's time, bottleneck and sensitivity vector of the chosen
  // configuration (the first model's time and bottleneck, no sensitivity, when the emulator
  // could not take it); "prediction" keeps the breakdown the candidate was ranked by.
  const Explanation x = outcome.explanation ? *outcome.explanation : Explanation{};
  if (outcome.explanation) {
    j["predicted_us"] = x.predicted_us;
    j["bottleneck"] = {{"resource", x.resource}, {"kind", x.kind}};
    j["prediction_model"] = x.model;
  } else {
    const WalkBottleneck b = first_model_bottleneck(best.prediction);
    j["predicted_us"] = best.prediction.time_us;
    j["bottleneck"] = {{"resource", b.resource}, {"kind", b.kind == WalkBottleneckKind::Latency ? "latency" : "throughput"}};
    j["prediction_model"] = "first_model";
  }
  j["sensitivity"] = x.sensitivity;
  j["prediction"] = best.prediction.to_json();
  j["source"] = outcome.measured ? "measured" : "model";
  j["match"] = "exact";  // how it was found; "source" says whether its time was measured
  j["distance"] = 0.0;
  j["neighbour"] = nullptr;
  j["measured_us"] = best.measured_ok() ? nlohmann::json(best.measurement->median_us) : nlohmann::json();
  if (best.measurement) j["measurement"] = best.measurement->to_json();
  if (best.kernel) j["resources"] = nlohmann::json(best.kernel->usage);
  j["flops"] = family.flops(workload, problem);
  j["min_bytes"] = family.min_bytes(workload, problem);
  j["preprocessing"] = preprocessing(family.prepare(workload, problem, best.config).prepare_seconds, outcome);
  j["candidates_considered"] = outcome.candidates_considered;
  j["phase_seconds"] = outcome.phase_seconds;

  nlohmann::json vendor = nlohmann::json::array();
  const VendorTiming* fastest_vendor = nullptr;
  for (const VendorTiming& v : outcome.vendor) {
    vendor.push_back({{"name", v.name}, {"measurement", v.measurement.to_json()}});
    if (v.measurement.status == MeasureStatus::Ok &&
        (!fastest_vendor || v.measurement.median_us < fastest_vendor->measurement.median_us))
      fastest_vendor = &v;
  }
  j["vendor"] = vendor;
  // Tuned vs default: the family's untuned configuration, measured in the same run.
  j["default"] = nullptr;
  if (const auto& d = outcome.untuned_default) {
    j["default"] = {{"config_key", d->config_key},
                    {"measurement", d->measurement ? d->measurement->to_json() : nlohmann::json()}};
    if (d->measured_ok() && best.measured_ok())
      j["speedup_vs_default"] = d->measurement->median_us / best.measurement->median_us;
  }
  j["use"] = "ktune";
  if (fastest_vendor && best.measured_ok()) {
    const double ours = best.measurement->median_us, theirs = fastest_vendor->measurement.median_us;
    j["speedup_vs_vendor"] = theirs / ours;
    if (theirs < ours) {
      j["use"] = fastest_vendor->name;
      j["recommendation"] = "use " + fastest_vendor->name + ": " + std::to_string(theirs) + " us against ktune's " +
                            std::to_string(ours) + " us";
    }
  }
  return j;
}

nlohmann::json default_answer(const KernelFamily& family, const Problem& problem, const AnswerContext& context) {
  nlohmann::json j = describe_config(family, problem, family.space(problem).first_valid(), context);
  j["source"] = "default";
  j["match"] = "default";
  j["predicted_us"] = nullptr;
  j["measured_us"] = nullptr;
  j["bottleneck"] = nullptr;
  j["sensitivity"] = nullptr;
  return j;
}

}  // namespace ktune
