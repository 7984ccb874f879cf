// A family on the GPU against its vendor library (cuSPARSE, cuBLAS), in one run. For every
// matrix, problem and dtype: every configuration of the family's space measured and verified
// (the ground truth of the emulator and search tables), the best of them against the fastest
// vendor call, and the effective bandwidth by the family's byte model (min_bytes) against a
// device-to-device copy measured in the same run. L2 flushed, medians.
//
// usage: family_bench [--family spmv|spmm|sddmm|gemm] [--problem JSON]... [--matrices DIR] [--large]
//                     [--fresh] [--medium] [--dtype f32|f64|bf16|f16|both] [--only NAME] [--schedule NAME]
//                     [--config KEY] [--budget N] [--search N] [--sample N] [--out DIR] [--commit SHA] [--verbose]
// A dense family (gemm) has no matrices: each --problem is a workload, and a space too large to
// measure whole is searched with --budget N measurements.
// writes OUT/<family>_bench.json, OUT/<family>_bench.md and OUT/<family>_ground_truth.json.
// --problem (repeatable) gives the family's problem parameters, e.g. '{"k":128}' (default: the
// family's defaults). --schedule measures that schedule's configurations only (the vendor and
// the copy still run): its ground truth is merged into a whole one with
// bench/merge_ground_truth.py. --config measures the configurations it names (canonical keys,
// "block=128;items_per_thread=1;lanes=4;schedule=subwarp", comma-separated), for a profiler or a
// comparison.
// --verbose prints each configuration as it finishes, with its wall time. --search N tunes as
// ktuned does (model, walk, search) within N measurements instead of measuring every
// configuration: the answer a user gets, for workloads whose whole space costs too long.
// --sample N measures the family's default configuration and N others drawn uniformly from the
// valid space (seeded: the same ones on every workload), for spaces too large to measure whole
// (the graph families'): their ground truth is that sample. --only takes a comma-separated list.
// A graph family reads --matrices DIR's files as graphs, as ktuned does.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "bench_workloads.h"
#include "command_line.h"
#include "exhaustive_tuner.h"
#include "workload/matrix_market.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace ktune;

namespace {

struct Options {
  std::string family = "spmv", matrices, out = ".", only, schedule, config, commit = "unknown";
  int budget = 200;  // measurements, for a space too large to measure whole (GEMM's)
  bool search = false;  // --search: tune within `budget` rather than measure every configuration
  int sample = 0;        // --sample: measure the default and this many uniformly drawn configurations
  std::vector<json> problems;  // empty: the family's defaults
  bool large = false, fresh = false, medium = false, verbose = false;
  std::vector<Dtype> dtypes = {Dtype::F32, Dtype::F64};
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&] { return bench::option_value(argc, argv, i); };
    if (a == "--family") o.family = value();
    else if (a == "--problem") o.problems.push_back(json::parse(value()));
    else if (a == "--matrices") o.matrices = value();
    else if (a == "--out") o.out = value();
    else if (a == "--only") o.only = value();
    else if (a == "--schedule") o.schedule = value();
    else if (a == "--config") o.config = value();
    else if (a == "--commit") o.commit = value();
    else if (a == "--budget") o.budget = std::stoi(value());
    else if (a == "--search") o.search = true, o.budget = std::stoi(value());
    else if (a == "--sample") o.sample = std::stoi(value());
    else if (a == "--large") o.large = true;
    else if (a == "--fresh") o.fresh = true;
    else if (a == "--medium") o.medium = true;
    else if (a == "--verbose") o.verbose = true;
    else if (a == "--dtype") {
      const std::string d = value();
      o.dtypes = d == "both" ? std::vector<Dtype>{Dtype::F32, Dtype::F64} : std::vector<Dtype>{dtype_from_string(d)};
    } else throw std::runtime_error("unknown argument " + a);
  }
  if (o.problems.empty()) o.problems.push_back(json());
  return o;
}

struct NamedWorkload {
  std::string name, kind;  // kind: "real" or "generated"
  Workload workload;
};

std::vector<NamedWorkload> workloads(const Options& o, const KernelFamily& family) {
  std::vector<NamedWorkload> out;
  const auto kind = [&](WorkloadKind k) { return bench::read_as(family.workload_kind(), k); };
  // A dense family's workload is its problem's shape (--problem): no matrix to read.
  if (family.workload_kind() == WorkloadKind::Dense) return {{family.name(), "dense", {WorkloadKind::Dense, {}}}};
  if (!o.matrices.empty()) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(o.matrices))
      if (e.path().string().find(".mtx") != std::string::npos) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      std::string name = f.filename().string();
      name = name.substr(0, name.find(".mtx"));
      if (!bench::selected(o.only, name)) continue;
      out.push_back({name, "real", {kind(WorkloadKind::SparseMatrix), read_matrix_market_file(f.string(), ReadLimits{})}});
    }
  }
  const auto add = [&](const std::vector<bench::GeneratedWorkload>& list) {
    for (const bench::GeneratedWorkload& g : list)
      if (bench::selected(o.only, g.name)) out.push_back({g.name, "generated", {kind(g.kind), g.make()}});
  };
  if (o.large) add(bench::large_workloads());
  if (o.fresh) add(bench::fresh_workloads());
  if (o.medium) add(bench::medium_workloads());
  return out;
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// Writes the JSON, the markdown table and the ground truth of what has run so far: called after
// every workload, so a run cut short still leaves its results.
void write_results(const Options& o, const DeviceInfo& device, double copy_gbs, const json& rows, const json& truth) {
  // Geometric means over the groups the targets name.
  auto geomean = [&](auto pick) {
    double log_sum = 0;
    int n = 0;
    for (const json& r : rows)
      if (r.contains("speedup") && pick(r)) log_sum += std::log(r["speedup"].get<double>()), ++n;
    return n ? json(std::exp(log_sum / n)) : json();  // null: no such case was measured
  };
  const json summary = {
      {"geomean_speedup_all", geomean([](const json&) { return true; })},
      {"geomean_speedup_real", geomean([](const json& r) { return r["kind"] == "real"; })},
      {"min_speedup", [&] {
         json m;
         for (const json& r : rows)
           if (r.contains("speedup") && (m.is_null() || r["speedup"].get<double>() < m.get<double>())) m = r["speedup"];
         return m;
       }()}};
  const json meta = {{"device", device.to_json()}, {"commit", o.commit}, {"copy_gbs", copy_gbs},
                     {"command", "family_bench --family " + o.family +
                                     [&] {
                                       std::string problems;
                                       for (const json& p : o.problems)
                                         if (!p.is_null()) problems += " --problem '" + p.dump() + "'";
                                       return problems;
                                     }() +
                                     (o.matrices.empty() ? std::string() : " --matrices " + o.matrices) +
                                     (o.large ? " --large" : "") + (o.fresh ? " --fresh" : "") + (o.medium ? " --medium" : "") +
                                     (o.only.empty() ? "" : " --only " + o.only) + (o.schedule.empty() ? "" : " --schedule " + o.schedule) +
                                     (o.config.empty() ? "" : " --config '" + o.config + "'") +
                                     (o.search ? " --search " + std::to_string(o.budget) : "") +
                                     (o.sample ? " --sample " + std::to_string(o.sample) : "")}};
  fs::create_directories(o.out);
  std::ofstream(fs::path(o.out) / (o.family + "_bench.json"))
      << json{{"meta", meta}, {"summary", summary}, {"rows", rows}}.dump(1);
  std::ofstream(fs::path(o.out) / (o.family + "_ground_truth.json")) << json{{"meta", meta}, {"workloads", truth}}.dump();

  std::ofstream md(fs::path(o.out) / (o.family + "_bench.md"));
  md << o.family << " on " << device.name << " (" << device.arch() << ", " << device.sms << " SMs, L2 "
     << (device.l2_bytes >> 20) << " MiB), commit " << o.commit << ", device copy " << fixed(copy_gbs, 0)
     << " GB/s, L2 flushed, medians.\n\n"
     << "| matrix | problem | dtype | rows | nnz | ktune µs | best config | vendor µs | vendor | speedup | GB/s | % copy |\n"
     << "|---|---|---|---:|---:|---:|---|---:|---|---:|---:|---:|\n";
  for (const json& r : rows)
    md << "| " << r["workload"].get<std::string>() << " | " << r["problem"].dump() << " | " << r["dtype"].get<std::string>()
       << " | " << r["rows"] << " | "
       << r["nnz"] << " | " << (r.contains("ktune_us") ? fixed(r["ktune_us"], 2) : "-") << " | "
       << r.value("ktune_config", "-") << " | " << (r.contains("cusparse_us") ? fixed(r["cusparse_us"], 2) : "-") << " | "
       << r.value("cusparse_alg", "-") << " | " << (r.contains("speedup") ? fixed(r["speedup"], 2) + "x" : "-") << " | "
       << (r.contains("gbs") ? fixed(r["gbs"], 0) : "-") << " | " << (r.contains("pct_copy") ? fixed(r["pct_copy"], 1) : "-")
       << " |\n";
  const auto ratio = [](const json& v) { return v.is_null() ? std::string("-") : fixed(v.get<double>(), 2) + "x"; };
  md << "\nGeomean speedup over the vendor: all " << ratio(summary["geomean_speedup_all"]) << ", real matrices "
     << ratio(summary["geomean_speedup_real"]) << "; minimum " << ratio(summary["min_speedup"]) << ".\n";
}

}  // namespace

int main(int argc, char** argv) try {
  const Options o = parse(argc, argv);
  Measurer measurer(default_worker_path());
  if (!measurer.available()) {
    std::cerr << "family_bench: no GPU: " << measurer.device().why_absent << "\n";
    return 1;
  }
  const DeviceInfo device = measurer.device();
  const bench::ExhaustiveTuner exhaustive(measurer, !o.search);  // ground truth: every configuration
  const Tuner& tuner = exhaustive.tuner();
  const double copy_gbs = measurer.device_copy_bandwidth_gbs(size_t{2} << 30);
  std::cerr << device.name << ": device copy " << copy_gbs << " GB/s\n";

  const KernelFamily* family = find_family(o.family);
  if (!family) throw std::runtime_error("no kernel family '" + o.family + "'");
  json rows = json::array(), truth = json::array();
  for (const NamedWorkload& nw : workloads(o, *family))
    for (const json& params : o.problems)
    for (Dtype dtype : o.dtypes) {
      const auto start = std::chrono::steady_clock::now();
      TuneRequest request;
      request.family = family;
      request.problem = make_problem(*family, params, Precision::uniform(dtype));
      request.budget.seconds = 1e9;
      request.budget.measurements = o.budget;  // counts only where the space is too large to measure whole
      bench::CollectingObserver collector;
      if (o.verbose) collector.log = &std::cerr;
      if (!o.schedule.empty()) {
        const std::string token = ";schedule=" + o.schedule + ";";
        collector.skip = [token](const std::string& key) { return (";" + key + ";").find(token) == std::string::npos; };
      }
      std::optional<CandidateOutcome> best;
      std::vector<VendorTiming> vendor_timings;
      std::map<std::string, double> phase_seconds;  // a search's: where its time went
      if (o.sample > 0 || !o.config.empty()) {
        const ParameterSpace space = family->space(request.problem);
        std::vector<Config> configs;
        if (o.sample > 0) {
          SpaceRng rng(1);
          configs = {space.first_valid()};
          for (Config& c : space.sample(rng, static_cast<size_t>(o.sample)))
            if (space.canonical(c) != space.canonical(configs.front())) configs.push_back(std::move(c));
        }
        for (size_t start = 0; start < o.config.size();) {  // --config's comma-separated keys
          const size_t end = std::min(o.config.find(',', start), o.config.size());
          configs.push_back(space.from_canonical(o.config.substr(start, end - start)));
          start = end + 1;
        }
        bench::ExhaustiveTuner::Measured m = exhaustive.measure_each(nw.workload, request, configs);
        for (size_t i = 0; i < m.candidates.size(); ++i) {
          if (m.candidates[i].measured_ok() &&
              (!best || m.candidates[i].measurement->median_us < best->measurement->median_us))
            best = m.candidates[i];
          collector.seconds.push_back(m.seconds[i]);
        }
        collector.all = std::move(m.candidates);
        vendor_timings = std::move(m.vendor);
      } else {
        TuneOutcome outcome = tuner.run(nw.workload, request, collector);
        best = std::move(outcome.best);
        vendor_timings = std::move(outcome.vendor);
        phase_seconds = std::move(outcome.phase_seconds);
      }
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const double bytes = request.family->min_bytes(nw.workload, request.problem);
      json configs = json::array();
      for (size_t i = 0; i < collector.all.size(); ++i) {
        const CandidateOutcome& c = collector.all[i];
        configs.push_back({{"config", c.config_key},
                           {"predicted_us", c.prediction.time_us},
                           {"seconds", collector.seconds[i]},
                           {"measurement", c.measurement ? c.measurement->to_json() : json()}});
      }
      truth.push_back({{"workload", nw.name}, {"problem", request.problem.params}, {"dtype", to_string(dtype)},
                       {"rows", nw.workload.matrix.rows},
                       {"nnz", nw.workload.matrix.nnz()}, {"configs", configs}});
      const VendorTiming* vendor = nullptr;
      for (const VendorTiming& v : vendor_timings)
        if (v.measurement.status == MeasureStatus::Ok && (!vendor || v.measurement.median_us < vendor->measurement.median_us))
          vendor = &v;
      json row = {{"workload", nw.name}, {"kind", nw.kind}, {"problem", request.problem.params}, {"dtype", to_string(dtype)},
                  {"rows", nw.workload.matrix.rows}, {"nnz", nw.workload.matrix.nnz()}, {"min_bytes", bytes},
                  {"tune_seconds", seconds}, {"configs", collector.all.size()}};
      if (!phase_seconds.empty()) row["phase_seconds"] = phase_seconds;
      int failed = 0;
      for (const CandidateOutcome& c : collector.all) failed += !c.measured_ok();
      row["configs_failed"] = failed;
      if (best) {
        const double t = best->measurement->median_us;
        row["ktune_us"] = t;
        row["ktune_config"] = best->config_key;
        row["gbs"] = bytes / t / 1e3;
        row["pct_copy"] = 100.0 * bytes / t / 1e3 / copy_gbs;
      }
      if (vendor) {
        row["cusparse_us"] = vendor->measurement.median_us;
        row["cusparse_alg"] = vendor->name;
        if (best) row["speedup"] = vendor->measurement.median_us / best->measurement->median_us;
      }
      std::cerr << row.dump() << "\n";
      rows.push_back(row);
      write_results(o, device, copy_gbs, rows, truth);
    }

  std::cout << std::ifstream(fs::path(o.out) / (o.family + "_bench.md")).rdbuf();
  return 0;
} catch (const std::exception& e) {
  std::cerr << "family_bench: " << e.what() << "\n";
  return 1;
}
