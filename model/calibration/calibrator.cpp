#include "model/calibration/calibrator.h"

#include <algorithm>
#include <ctime>
#include <stdexcept>

#include "model/calibration/slope.h"
#include "model/gpu_spec.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

double need(const std::map<std::string, double>& per_unit, const std::string& name) {
  auto it = per_unit.find(name);
  if (it == per_unit.end()) throw InputError("calibration: benchmark '" + name + "' has no result");
  return it->second;
}

// The benchmarks give every gap per SM; a pipe that each scheduler owns admits a request every
// schedulers x (per-SM gap) cycles (model/resource.h, resource_is_per_scheduler).
void set(Calibration& c, Resource r, double latency, std::string latency_method, double gap_per_sm,
         std::string gap_method) {
  const size_t i = static_cast<size_t>(r);
  const double gap = resource_is_per_scheduler(r) ? gap_per_sm * c.schedulers_per_sm : gap_per_sm;
  c.timing[i] = {latency, gap};
  c.latency_method[i] = std::move(latency_method);
  c.gap_method[i] = std::move(gap_method);
}

}  // namespace

MeasureOptions calibration_measure_options() {
  MeasureOptions o;
  o.hot = true;
  o.warmup = 2;
  o.min_runs = 7;
  o.max_runs = 60;
  o.max_seconds = 3;
  o.target_rel_halfwidth = 0.01;
  o.kernel_timeout_s = 20;
  return o;
}

void derive_resource_table(const std::map<std::string, double>& u, Calibration& c) {
  if (c.schedulers_per_sm < 1) throw InputError("calibration: schedulers per SM must be set before deriving gaps");
  const auto m = [&u](const char* name) { return need(u, name); };
  set(c, Resource::IntAlu, m("int_alu_latency"), "measured: dependent xor/add chain, one warp", m("int_alu_gap"),
      "measured: 8 independent xor/add chains per thread, 32 warps per SM");
  set(c, Resource::Fp32, m("fp32_latency"), "measured: dependent FMA chain, one warp", m("fp32_gap"),
      "measured: 8 independent FMA chains per thread, 32 warps per SM");
  set(c, Resource::Fp64, m("fp64_latency"), "measured: dependent DFMA chain, one warp", m("fp64_gap"),
      "measured: 8 independent DFMA chains per thread, 32 warps per SM");
  set(c, Resource::Sfu, m("sfu_latency"), "measured: dependent rsqrt.approx chain, one warp", m("sfu_gap"),
      "measured: 8 independent rsqrt.approx chains per thread, 32 warps per SM");
  set(c, Resource::Shared, m("shared_latency"), "measured: shared-memory pointer chase, conflict free", m("shared_gap"),
      "measured: conflict-free 32-bit loads, per wavefront (shuffles: see extras)");
  set(c, Resource::L1, m("l1_latency"), "measured: pointer chase over 16 KiB", m("l1_gap"),
      "measured: 16-byte loads re-reading 64 KiB through L1, per sector");
  set(c, Resource::L2Tag, m("l2_latency"), "measured: pointer chase over 8 MiB past L1", m("l2_gather_gap"),
      "measured: one lane per line, 32 lines per access over 16 MiB past L1, per request");
  set(c, Resource::L2, m("l2_latency"), "measured: pointer chase over 8 MiB past L1", m("l2_gap"),
      "measured: 16-byte loads re-reading 16 MiB past L1, per sector");
  set(c, Resource::Dram, m("dram_latency"), "measured: pointer chase over 1 GiB (a few percent hit L2)",
      m("dram_gap"), "measured: 16-byte streaming loads of about 1 GiB read once, per sector");
  set(c, Resource::Atomic, m("atomic_latency"),
      "measured: dependent global atomicAdd chain, one thread (includes two address operations)", m("atomic_gap"),
      "measured: atomicAdd to distinct sectors, per address (same address: see extras)");
  set(c, Resource::Barrier, m("barrier_latency"), "measured: back-to-back __syncthreads, one block of 8 warps",
      m("barrier_gap"), "measured: back-to-back __syncthreads, 64 warps per SM, per warp");
  // A loop iteration is add -> compare -> branch: the branch's share is what the two integer
  // operations leave, never less than one cycle.
  const double branch_latency = std::max(1.0, m("branch_loop_latency") - 2 * m("int_alu_latency"));
  set(c, Resource::Branch, branch_latency,
      "derived: empty-loop iteration minus two integer latencies (add, compare)", m("branch_loop_gap"),
      "derived: empty-loop iterations per SM, 64 warps; an upper bound (the add and compare share the issue slots)");
  // A scheduler issues an independent instruction the next cycle; no stream can issue faster
  // than the issue rate, so the fastest observed instruction stream bounds it.
  const double issue_gap = std::min({m("issue_gap"), m("fp32_gap"), m("int_alu_gap")});
  set(c, Resource::Issue, 1.0, "derived: one cycle by definition of an issue slot", issue_gap,
      "measured: mixed FMA and integer streams, the fastest instruction rate per SM");
  for (const char* extra : {"shuffle_latency", "shuffle_gap", "atomic_same_address_gap", "branch_loop_latency",
                            "branch_loop_gap", "issue_gap", "block_dispatch_gap", "l1_gather_gap", "l1_gather4_gap",
                            "l2_gather_gap", "l2_gather4_gap", "l2_gather_via_l1_gap", "dram_gather_gap",
                            "dram_gather4_gap"})
    c.extras[extra] = m(extra);
}

Calibration calibrate(const DeviceInfo& device, const std::string& fingerprint, const CalibrationCompiler& compile,
                      const CalibrationTimer& time) {
  if (!device.present) throw InputError("calibration needs a GPU: " + device.why_absent);
  const CompiledKernel kernel = compile(microbenchmark_compile_request(device.arch()));
  if (!kernel.ok) throw std::runtime_error("the calibration kernels did not compile: " + kernel.log);

  Calibration c;
  c.fingerprint = fingerprint;
  c.device = device.name;
  c.arch = device.arch();
  c.sms = device.sms;
  c.reported_clock_ghz = device.clock_khz / 1e6;
  try {
    c.schedulers_per_sm = spec_for_arch(c.arch).schedulers_per_sm;
  } catch (const InputError&) {
    c.schedulers_per_sm = 4;  // every NVIDIA SM since Maxwell has four sub-partitions
  }
  c.created_at = utc_now();
  std::map<std::string, double> per_unit;
  for (const Microbenchmark& b : microbenchmarks(device.sms)) {
    TimedRun run[2];
    for (int k = 0; k < 2; ++k) {
      const int64_t n = b.lengths[k];
      const Measurement m = time(kernel, b.plan(n), b, n);
      if (m.status != MeasureStatus::Ok)
        throw std::runtime_error("calibration benchmark " + b.name + " (n=" + std::to_string(n) + ") failed: " +
                                 to_string(m.status) + (m.message.empty() ? "" : ": " + m.message));
      run[k] = {b.units(n), m.median_us};
    }
    double value;
    try {
      value = b.name == "clock" ? clock_ghz_from_spin(run[0], run[1]) : cycles_per_unit(run[0], run[1], c.clock_ghz);
    } catch (const InputError& e) {
      // Not the caller's fault: the device gave timings that make no sense.
      throw std::runtime_error("calibration benchmark " + b.name + ": " + e.what());
    }
    if (b.name == "clock") c.clock_ghz = value;
    per_unit[b.name] = value;
    c.runs.push_back({b.name, {run[0].units, run[1].units}, {run[0].us, run[1].us}, value});
  }
  derive_resource_table(per_unit, c);
  return c;
}

}  // namespace ktune
