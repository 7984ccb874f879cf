// The sddmm family's kernels on the GPU: every configuration at one K, fp32 and fp64, verified by
// the measurement worker against the CPU reference on a matrix with empty rows, a long row and
// panels with dense columns (the interpreter checks the same in CI; this checks the hardware:
// barriers, shuffles among a group's lanes while other groups of the warp have finished).
#include <gtest/gtest.h>

#include <future>

#include "gpu/thread_pool.h"
#include "kernels/sddmm/sddmm_family.h"
#include "tests/device/device_fixture.h"
#include "workload/generators.h"

namespace ktune {
namespace {

class SddmmOnDevice : public DeviceTest {};

// A band (panels with dense columns) over the first 2500 rows, empty rows after it, and a last
// row of 3000 nonzeros.
Workload banded_empty_and_long() {
  Workload w;
  CsrF64& m = w.matrix;
  m = generate_banded(2500, 12, 4);
  m.rows = 5000;
  m.cols = 3000;
  m.row_ptr.resize(5000, m.row_ptr.back());
  for (int32_t c = 0; c < 3000; ++c) m.col_idx.push_back(c);
  m.row_ptr.push_back(static_cast<int32_t>(m.col_idx.size()));
  m.values.assign(m.col_idx.size(), 1.0);
  return w;
}

TEST_F(SddmmOnDevice, EveryConfigurationVerifies) {
  const SddmmFamily family;
  const Workload w = banded_empty_and_long();
  ThreadPool pool;
  for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
    const Problem problem = Problem::of(dtype, {{"k", 36}});
    const Reference reference = family.reference(w, problem);
    std::vector<std::pair<Config, std::future<CompiledKernel>>> kernels;
    for (const Config& config : family.space(problem).enumerate()) {
      KernelSource s = family.source(problem, config);
      CompileRequest request{std::move(s.code), std::move(s.entries), std::move(s.options), measurer().device().arch()};
      kernels.emplace_back(config, pool.submit([request] { return NvrtcCompiler{}.compile(request); }));
    }
    LaunchPlan previous;
    for (auto& [config, kernel] : kernels) {
      const std::string what = family.space(problem).canonical(config) + " " + to_string(dtype);
      const CompiledKernel k = kernel.get();
      ASSERT_TRUE(k.ok) << what << "\n" << k.log;
      previous = family.prepare_next(w, problem, config, previous);
      MeasureOptions options;
      options.max_seconds = 0.02;
      const Measurement m = measurer().measure(k, previous, reference, options);
      EXPECT_EQ(m.status, MeasureStatus::Ok) << what << ": " << m.message;
    }
  }
}

}  // namespace
}  // namespace ktune
