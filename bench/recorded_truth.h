#pragma once
// What the programs reading a family_bench ground truth share (emulator_accuracy, search_replay):
// the device it was measured on, the family it measured, and its workloads by name.
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/bench_workloads.h"
#include "kernels/kernel_family.h"
#include "model/gpu_spec.h"
#include "workload/matrix_market.h"

namespace ktune::bench {

// The device the ground truth was measured on: the sm_90 table with its SM count, L2 and clock.
inline GpuSpec measured_device(const nlohmann::json& device) {
  GpuSpec gpu = spec_for_arch(device.value("arch", std::string("sm_90")));
  gpu.sms = device.value("sms", gpu.sms);
  gpu.l2_bytes = device.value("l2_bytes", gpu.l2_bytes);
  if (device.contains("clock_khz")) gpu.clock_ghz = device["clock_khz"].get<double>() / 1e6;
  return gpu;
}

// The family a truth measured: family_bench records "--family NAME" in its command; the SpMV
// truths of the older spmv_bench record none.
inline std::string truth_family(const nlohmann::json& meta) {
  const std::string command = meta.value("command", std::string());
  const std::string flag = "--family ";
  const size_t at = command.find(flag);
  if (at == std::string::npos) return "spmv";
  const size_t start = at + flag.size();
  return command.substr(start, command.find(' ', start) - start);
}

// A truth's workload by name: a dense family's is its problem's shape (family_bench reads no
// matrix for it); a generated one comes from the benchmarks' lists (nullopt when
// `skip_generated`); otherwise NAME.mtx.gz or NAME.mtx under `matrices`.
inline std::optional<Workload> load_named_workload(const KernelFamily& family, const std::string& name,
                                                   const std::string& matrices, bool skip_generated) {
  namespace fs = std::filesystem;
  if (family.workload_kind() == WorkloadKind::Dense) return Workload{WorkloadKind::Dense, {}};
  for (const auto* list : {&large_workloads(), &fresh_workloads(), &medium_workloads()})
    for (const GeneratedWorkload& g : *list)
      if (g.name == name)
        return skip_generated ? std::nullopt
                              : std::optional<Workload>(Workload{read_as(family.workload_kind(), g.kind), g.make()});
  for (const char* suffix : {".mtx.gz", ".mtx"}) {
    const fs::path file = fs::path(matrices) / (name + suffix);
    if (fs::exists(file))
      return Workload{read_as(family.workload_kind(), WorkloadKind::SparseMatrix),
                      read_matrix_market_file(file.string(), ReadLimits{})};
  }
  throw std::runtime_error("no matrix " + name + " under " + matrices + " (--matrices DIR)");
}

}  // namespace ktune::bench
