// The spmm family's kernels on the GPU: every configuration at one K, fp32 and fp64, verified by
// the measurement worker against the CPU reference on a matrix with empty rows and a long row
// (the interpreter checks the same in CI; this checks the hardware: vector loads and stores,
// atomics into rows other groups store, the zeroing launch, aspt's barriers). Then a few
// configurations of each schedule against cuSPARSE on larger matrices, printed, not asserted.
#include <gtest/gtest.h>

#include <cstdio>
#include <future>

#include "gpu/thread_pool.h"
#include "kernels/spmm/spmm_family.h"
#include "model/device_spec.h"
#include "search/gpu_backend.h"
#include "tests/search/loop_fakes.h"
#include "tests/device/device_fixture.h"
#include "workload/generators.h"

namespace ktune {
namespace {

class SpmmOnDevice : public DeviceTest {
 protected:
  // Compiles every configuration on the thread pool, then measures each (prepare_next shares
  // the inputs, so the worker receives them once).
  std::vector<std::pair<Config, Measurement>> measure_all(const Workload& w, const Problem& problem,
                                                          const std::vector<Config>& configs, double seconds) {
    const SpmmFamily family;
    const Reference reference = family.reference(w, problem);
    ThreadPool pool;
    std::vector<std::future<CompiledKernel>> kernels;
    for (const Config& config : configs) {
      KernelSource s = family.source(problem, config);
      CompileRequest request{std::move(s.code), std::move(s.entries), std::move(s.options), measurer().device().arch()};
      kernels.push_back(pool.submit([request] { return NvrtcCompiler{}.compile(request); }));
    }
    std::vector<std::pair<Config, Measurement>> out;
    LaunchPlan previous;
    for (size_t i = 0; i < configs.size(); ++i) {
      const CompiledKernel k = kernels[i].get();
      EXPECT_TRUE(k.ok) << family.space(problem).canonical(configs[i]) << "\n" << k.log;
      previous = family.prepare_next(w, problem, configs[i], previous);
      MeasureOptions options;
      options.max_seconds = seconds;
      out.emplace_back(configs[i], measurer().measure(k, previous, reference, options));
    }
    return out;
  }
};

// A stencil's rows, three empty rows, and a last row of 3000 nonzeros.
Workload stencil_empty_and_long() {
  Workload w;
  CsrF64& m = w.matrix;
  m = generate_stencil_2d(60);
  m.rows += 4;
  m.cols = 3600;
  m.row_ptr.resize(static_cast<size_t>(m.rows), m.row_ptr.back());
  for (int32_t c = 0; c < 3000; ++c) m.col_idx.push_back(c + 600), m.values.push_back(0.25);
  m.row_ptr.push_back(static_cast<int32_t>(m.col_idx.size()));
  return w;
}

TEST_F(SpmmOnDevice, EveryConfigurationVerifies) {
  const Workload w = stencil_empty_and_long();
  for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
    const Problem problem = Problem::of(dtype, {{"k", 24}});
    for (const auto& [config, m] : measure_all(w, problem, SpmmFamily().space(problem).enumerate(), 0.02))
      EXPECT_EQ(m.status, MeasureStatus::Ok)
          << SpmmFamily().space(problem).canonical(config) << " " << to_string(dtype) << ": " << m.message;
  }
}

// heavy_light's thresholds make one plan where no row is longer than the smallest: the tuning
// loop on the GPU backend measures it once, and the other thresholds carry that measurement.
TEST_F(SpmmOnDevice, TheLoopMeasuresOncePlanTwinsTheDataMakes) {
  const SpmmFamily family;
  const Workload w{WorkloadKind::SparseMatrix, generate_stencil_2d(60)};  // rows of 5 nonzeros at most
  const Problem problem = Problem::of(Dtype::F32, {{"k", 32}});
  const ParameterSpace space = family.space(problem);
  std::vector<Config> twins;
  for (int64_t threshold : {64, 256, 1024}) {
    Config c = space.first_valid();
    c["schedule"] = 2;  // heavy_light
    c["block"] = 128;
    c["threshold"] = threshold;
    ASSERT_TRUE(space.valid(c)) << space.canonical(c);
    twins.push_back(c);
  }
  const NvrtcCompiler compiler;
  CompileCache cache(compiler, 8, nullptr);
  GpuLoopBackend backend(family, w, problem, false, spec_for_device(measurer().device()), cache, measurer(),
                         [&](const Config& c) {
                           KernelSource s = family.source(problem, c);
                           return CompileRequest{std::move(s.code), std::move(s.entries), std::move(s.options),
                                                 measurer().device().arch()};
                         });
  testing::ListTechnique list(twins);
  testing::RecordingObserver observer;
  ThreadPool pool(2);
  LoopSettings settings;
  settings.budget.measurements = 3;
  settings.finalists = 0;
  const TuneOutcome outcome = run_tuning_loop(space, {}, list, backend, pool, settings, observer);
  EXPECT_EQ(outcome.measurements, 1);
  ASSERT_EQ(observer.finished.size(), 3u);
  ASSERT_TRUE(observer.finished[0].measured_ok()) << observer.finished[0].measurement->message;
  for (size_t i = 1; i < 3; ++i) {
    EXPECT_EQ(observer.finished[i].same_plan_as, space.canonical(twins[0]));
    EXPECT_EQ(observer.finished[i].measurement->median_us, observer.finished[0].measurement->median_us);
  }
}

TEST_F(SpmmOnDevice, SchedulesAgainstCusparse) {
  const SpmmFamily family;
  const Problem problem = Problem::of(Dtype::F32, {{"k", 64}});
  const ParameterSpace space = family.space(problem);
  auto config = [&](const char* schedule, int64_t block, int64_t lanes, int64_t vec, int64_t items, int64_t threshold) {
    return space.from_json({{"schedule", schedule},
                            {"block", block},
                            {"lanes", lanes},
                            {"vec", vec},
                            {"k_tile", 64},
                            {"items", items},
                            {"threshold", threshold}});
  };
  const std::vector<Config> configs = {
      config("row_split", 64, 16, 4, 32, 64),       config("row_split", 128, 16, 4, 32, 64),
      config("row_split", 128, 8, 4, 32, 64),       config("row_split", 128, 16, 2, 32, 64),
      config("row_split", 128, 16, 1, 32, 64),      config("row_split", 128, 4, 4, 32, 64),
      config("nonzero_split", 128, 16, 4, 128, 64), config("nonzero_split", 128, 8, 4, 128, 64),
      config("heavy_light", 128, 16, 4, 32, 256),   config("heavy_light", 128, 8, 4, 32, 1024),
      config("aspt", 128, 16, 4, 32, 64),           config("aspt", 256, 8, 4, 32, 64)};
  for (const auto& [name, matrix] : {std::pair<const char*, CsrF64>{"laplace2d_1024", generate_stencil_2d(1024)},
                                     {"rmat18_ef16", generate_rmat(18, 16, 1)}}) {
    Workload w;
    w.matrix = matrix;
    std::printf("%s: %d rows, %lld nonzeros, k 64, f32\n", name, w.matrix.rows, static_cast<long long>(w.matrix.nnz()));
    for (const auto& [c, m] : measure_all(w, problem, configs, 0.5)) {
      EXPECT_EQ(m.status, MeasureStatus::Ok) << space.canonical(c) << ": " << m.message;
      std::printf("  %8.1f us  %s\n", m.median_us, space.canonical(c).c_str());
    }
    const LaunchPlan plan = family.vendor_plan(w, problem);
    const Reference reference = family.reference(w, problem);
    for (const VendorCall& call : family.vendor_calls(w, problem)) {
      MeasureOptions options;
      options.max_seconds = 0.5;
      const Measurement m = measurer().measure_vendor(plan, call, reference, options);
      std::printf("  %8.1f us  %s %s\n", m.median_us, call.label.c_str(), to_string(m.status));
    }
  }
}

}  // namespace
}  // namespace ktune
