// ktuned's measured search, proposal for proposal, without a GPU: the tuner runs as family_bench
// --search runs it (first model, SAAKE walk on the emulator, re-rank, seeds, ensemble,
// finalists), and every measurement is answered by a recorded whole space (a family_bench ground
// truth of every configuration, measured on one device in one call). A change to a model or to
// the search is then scored in minutes on this machine; noise is the recording's, the same for
// every replay. Per case: the order the search measured in, where each configuration ranks in
// the whole space, the first measurement within the tolerance of the best, and the answer.
//
// usage: search_replay --truth FILE [--truth FILE ...] [--matrices DIR] [--only A,B]
//                      [--budget 8] [--tolerance 0.03] [--md OUT.md]
#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/command_line.h"
#include "bench/exhaustive_tuner.h"
#include "bench/recorded_truth.h"
#include "gpu/compile_cache.h"
#include "gpu/nvrtc_compiler.h"
#include "gpu/thread_pool.h"
#include "kernels/kernel_family.h"
#include "kernels/precision.h"
#include "model/first_cost_model.h"
#include "search/candidate_order.h"
#include "search/launch_check.h"
#include "search/tuner.h"
#include "workload/input_error.h"

using nlohmann::json;
using namespace ktune;

namespace {

struct Options {
  std::vector<std::string> truths;
  std::string matrices = "data/graphs";
  std::string only;
  int budget = 8;
  double tolerance = 0.03;
  std::string md;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&] { return bench::option_value(argc, argv, i); };
    if (a == "--truth") o.truths.push_back(value());
    else if (a == "--matrices") o.matrices = value();
    else if (a == "--only") o.only = value();
    else if (a == "--budget") o.budget = std::stoi(value());
    else if (a == "--tolerance") o.tolerance = std::stod(value());
    else if (a == "--md") o.md = value();
    else throw std::runtime_error("unknown argument " + a);
  }
  if (o.truths.empty()) throw std::runtime_error("search_replay needs --truth FILE (a family_bench ground truth)");
  return o;
}

// A case's recorded measurements by canonical key.
using Recorded = std::map<std::string, Measurement>;

// The GPU's part of a tune answered from the recording: compiles, predictions and launch checks
// are the real ones; a measurement is the recorded one (a configuration the recording lacks
// fails, as one that cannot launch would). Keeps the order it was asked in.
class RecordedBackend : public LoopBackend {
 public:
  RecordedBackend(const KernelFamily& family, const Workload& w, const Problem& problem, const GpuSpec& gpu,
                  CompileCache& cache, const Tuner& tuner, const Recorded& recorded, std::vector<std::string>& order)
      : family_(family), workload_(w), problem_(problem), gpu_(gpu), cache_(cache), tuner_(tuner),
        recorded_(recorded), order_(order), space_(family.space(problem)) {}

  std::shared_ptr<const CompiledKernel> compile(const Config& config) override {
    return cache_.get(tuner_.compile_request(family_, problem_, config));
  }
  std::optional<Prediction> predict(const Config& config, const CompiledKernel& kernel) override {
    try {
      return ktune::predict(family_.estimate(workload_, problem_, config), combined_usage(kernel), gpu_);
    } catch (const InputError&) {
      return std::nullopt;
    }
  }
  std::string launch_violation(const Config& config, const CompiledKernel& kernel) override {
    return ktune::launch_violation(family_, workload_, problem_, config, kernel, gpu_);
  }
  Measurement measure(const Config& config, const CompiledKernel&) override {
    const std::string key = space_.canonical(config);
    order_.push_back(key);
    const auto it = recorded_.find(key);
    if (it == recorded_.end()) return Measurement{MeasureStatus::LaunchError, 0, 0, 0, 0, "not in the recording"};
    return it->second;
  }
  std::vector<VendorTiming> vendor() override { return {}; }

 private:
  const KernelFamily& family_;
  const Workload& workload_;
  Problem problem_;
  GpuSpec gpu_;
  CompileCache& cache_;
  const Tuner& tuner_;
  const Recorded& recorded_;
  std::vector<std::string>& order_;
  ParameterSpace space_;
};

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(digits);
  s << v;
  return s.str();
}

}  // namespace

int main(int argc, char** argv) try {
  const Options o = parse(argc, argv);
  NvrtcCompiler compiler;
  CompileCache cache(compiler, 4096, nullptr);
  ThreadPool pool;
  std::ostringstream table;
  table << "| family | workload | problem | dtype | configurations | best µs | measured (whole-space rank) | to "
        << fixed(100 * o.tolerance, 0) << "% | answer / best |\n|---|---|---|---|---:|---:|---|---:|---:|\n";
  std::vector<int> counts;
  int within = 0;
  for (const std::string& path : o.truths) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    const json truth = json::parse(in);
    const KernelFamily* family = find_family(bench::truth_family(truth["meta"]));
    if (!family) throw std::runtime_error(path + ": no family " + bench::truth_family(truth["meta"]));
    const GpuSpec gpu = bench::measured_device(truth["meta"]["device"]);
    for (const json& w : truth["workloads"]) {
      const std::string name = w["workload"];
      if (!bench::selected(o.only, name)) continue;
      const std::optional<Workload> workload = bench::load_named_workload(*family, name, o.matrices, false);
      Recorded recorded;
      for (const json& c : w["configs"])
        recorded.emplace(c["config"].get<std::string>(), Measurement::from_json(c["measurement"]));
      double best = 0;
      std::vector<double> ok;
      for (const auto& [key, m] : recorded)
        if (m.status == MeasureStatus::Ok) ok.push_back(m.median_us);
      if (ok.empty()) continue;
      std::sort(ok.begin(), ok.end());
      best = ok.front();

      std::vector<std::string> order;  // what the search measured, in turn
      TunerContext ctx;
      ctx.compile_cache = &cache;
      ctx.compile_pool = &pool;
      ctx.gpu = gpu;
      std::unique_ptr<Tuner> tuner;
      ctx.replay = [&](const Workload& wl, const TuneRequest& r, const GpuSpec& g) -> std::unique_ptr<LoopBackend> {
        return std::make_unique<RecordedBackend>(*r.family, wl, r.problem, g, cache, *tuner, recorded, order);
      };
      tuner = std::make_unique<Tuner>(ctx);
      TuneRequest request;
      request.family = family;
      request.problem = make_problem(*family, w.value("problem", json::object()),
                                     precision_from_string(w.value("dtype", std::string("f32"))));
      request.budget.seconds = 1e9;
      request.budget.measurements = o.budget;
      bench::CollectingObserver observer;
      const TuneOutcome outcome = tuner->run(*workload, request, observer);

      std::ostringstream measured;
      int count = o.budget + 1;
      for (size_t i = 0; i < order.size() && static_cast<int>(i) < o.budget; ++i) {
        const Measurement& m = recorded.count(order[i]) ? recorded.at(order[i]) : Measurement{};
        const bool good = m.status == MeasureStatus::Ok;
        const size_t rank = good ? static_cast<size_t>(std::lower_bound(ok.begin(), ok.end(), m.median_us) - ok.begin()) + 1 : 0;
        measured << (i ? ", " : "") << (good ? std::to_string(rank) : std::string("failed"));
        if (count > o.budget && good && m.median_us <= best * (1 + o.tolerance)) count = static_cast<int>(i) + 1;
      }
      counts.push_back(count);
      within += count <= o.budget;
      const double answer = outcome.best && outcome.best->measured_ok() ? outcome.best->measurement->median_us : 0;
      table << "| " << family->name() << " | " << name << " | " << w.value("problem", json::object()).dump() << " | "
            << w.value("dtype", std::string()) << " | "
            << recorded.size() << " | " << fixed(best, 1) << " | " << measured.str() << " | "
            << (count <= o.budget ? std::to_string(count) : ">" + std::to_string(o.budget)) << " | "
            << (answer > 0 ? fixed(answer / best, 3) : std::string("-")) << " |\n";
      std::cerr << name << ": " << measured.str() << "\n";
    }
  }
  std::sort(counts.begin(), counts.end());
  if (!counts.empty()) {
    const size_t n = counts.size();
    const double median = n % 2 ? counts[n / 2] : (counts[n / 2 - 1] + counts[n / 2]) / 2.0;
    table << "\n" << n << " cases: median " << median << " measurements to within " << fixed(100 * o.tolerance, 0)
          << "% of the best (" << o.budget + 1 << ": never); " << within << " of " << n << " within " << o.budget
          << ".\n";
  }
  std::cout << table.str();
  if (!o.md.empty()) std::ofstream(o.md) << table.str();
  return 0;
} catch (const std::exception& e) {
  std::cerr << "search_replay: " << e.what() << "\n";
  return 1;
}
