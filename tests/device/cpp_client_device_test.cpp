// The C++ client on the GPU (clients/cpp): every SpMV schedule, the SpMM and SDDMM schedules,
// the graph families' loops, GEMM and contractions, launched through TunedKernel on buffers the
// test owns, verified against the family's CPU reference and compared with the vendor library
// run through the same client (its fallback: cuSPARSE, cuBLAS). The matrix given on the host,
// and on the device (its values read back once).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>

#include "gpu/cuda_resources.h"
#include "ktune/tuned_kernel.h"
#include "tests/cpp_client/answer_fixture.h"
#include "tests/device/device_fixture.h"
#include "tests/kernels/plan_outputs.h"
#include "workload/generators.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

// A stencil's rows, three empty rows and a last row of 3000 entries: short, empty and long rows.
CsrF64 stencil_empty_and_long() {
  CsrF64 m = generate_stencil_2d(60);
  m.rows += 4;
  m.cols = 3600;
  m.row_ptr.resize(static_cast<size_t>(m.rows), m.row_ptr.back());
  for (int32_t c = 0; c < 3000; ++c) m.col_idx.push_back(c + 600), m.values.push_back(0.25);
  m.row_ptr.push_back(static_cast<int32_t>(m.col_idx.size()));
  return m;
}

// The configuration's plan, or nothing when the matrix refuses its form (SELL-32 past its
// padding bound: the long row's slice).
std::optional<LaunchPlan> prepared(const KernelFamily& family, const Workload& w, const Problem& p, const Config& c) {
  try {
    return family.prepare(w, p, c);
  } catch (const InputError& e) {
    std::printf("%s: refused (%s)\n", family.space(p).canonical(c).c_str(), e.what());
    return std::nullopt;
  }
}

class ClientOnDevice : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) return;
    cu_ = CudaDriver::load();
    CUdevice device = 0;
    cu_->check(cu_->device_get(&device, 0), "opening device 0");
    context_ = std::make_unique<PrimaryContext>(*cu_, device);  // the client's context: the primary one
    // The answers come from the test (with_answer): no daemon is asked.
    options_.notice = [](const std::string&) {};
  }

  struct Run {
    std::map<std::string, std::string> outputs;  // buffer -> bytes as the device left them
  };

  // Launches `kernel` on operands holding the plan's own inputs (x, b, a as the family
  // generates them) and reads its outputs back.
  Run launch(TunedKernel& kernel, const LaunchPlan& plan) {
    std::vector<DeviceMemory> memory;
    std::map<std::string, DeviceAddress> operands;
    for (const std::string& name : kernel.operands()) {
      const DeviceBuffer* b = plan.buffer(name);
      memory.emplace_back(*cu_, b->size);
      if (!b->bytes.empty()) cu_->check(cu_->memcpy_htod(memory.back().get(), b->bytes.data(), b->bytes.size()), "upload");
      else cu_->check(cu_->memset_d32_async(memory.back().get(), 0x7FF87FF8u, b->size / 4, nullptr), "poison");
      operands[name] = memory.back().get();
    }
    CudaStream stream(*cu_);
    kernel.launch(operands, stream.get());
    kernel.launch(operands, stream.get());  // again: a plan clears what it accumulates into
    cu_->check(cu_->stream_synchronize(stream.get()), "running");
    Run run;
    for (const PlanOutput& o : plan.outputs) {
      std::string& got = run.outputs[o.buffer];
      got.resize(o.elements * dtype_size(o.dtype));
      cu_->check(cu_->memcpy_dtoh(got.data(), operands.at(o.buffer), got.size()), "reading back");
    }
    return run;
  }

  // The family's verdict on `run` against its CPU reference, and the largest difference from
  // the vendor library's outputs relative to the largest reference value.
  void expect_matches(const KernelFamily& family, const Workload& w, const Problem& problem, const LaunchPlan& plan,
                      const Run& ours, const Run& vendor, const std::string& what) {
    const Reference reference = family.reference(w, problem);
    CheckData data;
    for (const auto& [name, bytes] : plan.check_data) data[name] = bytes.view();
    for (const PlanOutput& o : plan.outputs) {
      const Verdict v = family.verify(problem, o, ours.outputs.at(o.buffer), reference.at(o.buffer), data);
      EXPECT_TRUE(v.ok) << what << ": " << v.message;
      const Verdict vv = family.verify(problem, o, vendor.outputs.at(o.buffer), reference.at(o.buffer), data);
      EXPECT_TRUE(vv.ok) << what << " (vendor): " << vv.message;
      const std::vector<double> a = values_of(ours.outputs.at(o.buffer), o.dtype), b = values_of(vendor.outputs.at(o.buffer), o.dtype);
      double largest = 0, difference = 0;
      for (size_t i = 0; i < a.size(); ++i) {
        largest = std::max(largest, std::abs(b[i]));
        difference = std::max(difference, std::abs(a[i] - b[i]));
      }
      const double relative = largest > 0 ? difference / largest : difference;
      EXPECT_LE(relative, o.dtype == Dtype::F32 ? 1e-4 : 1e-10) << what;
      std::printf("%s: max |ktune - vendor| / max |y| = %.3g\n", what.c_str(), relative);
    }
  }

  static std::vector<double> values_of(const std::string& bytes, Dtype dtype) {
    std::vector<double> out;
    if (dtype == Dtype::F32) {
      std::vector<float> f(bytes.size() / 4);
      std::memcpy(f.data(), bytes.data(), bytes.size());
      out.assign(f.begin(), f.end());
    } else {
      out.resize(bytes.size() / 8);
      std::memcpy(out.data(), bytes.data(), bytes.size());
    }
    return out;
  }

  // The client on matrix `m`, or on a dense family's shape when `m` is null.
  TunedKernel client_for(const KernelRequest& request, const CsrF64* m, nlohmann::json answer) const {
    return m ? TunedKernel::with_answer(request, *m, std::move(answer), options_)
             : TunedKernel::with_answer(request, std::move(answer), options_);
  }

  // Every configuration of `configs` through the client, against the client's vendor library
  // (cuSPARSE, cuBLAS); `m` null for a dense family.
  void check_family(const std::string& kernel, const std::string& dtype, const nlohmann::json& params, const CsrF64* m,
                    const std::vector<Config>& configs) {
    const KernelFamily& family = *find_family(kernel);
    Workload w;
    if (m) w.matrix = *m;
    else w.kind = WorkloadKind::Dense;
    const Problem problem = make_problem(family, params, precision_from_string(dtype));
    TunedKernel vendor = client_for({kernel, dtype, params}, m, nullptr);
    ASSERT_NE(vendor.runs(), "ktune");
    const LaunchPlan vendor_plan = family.vendor_plan(w, problem);
    const Run theirs = launch(vendor, vendor_plan);
    for (const Config& config : configs) {
      const std::string what = kernel + " " + dtype + " " + family.space(problem).canonical(config);
      const std::optional<LaunchPlan> plan = prepared(family, w, problem, config);
      if (!plan) continue;
      TunedKernel ours = client_for({kernel, dtype, params}, m, testing::answer_for(family, problem, config));
      ASSERT_EQ(ours.runs(), "ktune");
      expect_matches(family, w, problem, *plan, launch(ours, *plan), theirs, what);
    }
  }

  const CudaDriver* cu_ = nullptr;
  std::unique_ptr<PrimaryContext> context_;
  ClientOptions options_;
};

TEST_F(ClientOnDevice, EverySpmvScheduleMatchesCusparse) {
  const KernelFamily& spmv = *find_family("spmv");
  for (const char* dtype : {"f32", "f64"}) {
    const Problem problem = make_problem(spmv, nullptr, precision_from_string(dtype));
    std::vector<Config> configs;
    for (const Config& c : testing::one_per_schedule(spmv, problem)) configs.push_back(c);
    const CsrF64 m = stencil_empty_and_long();
    check_family("spmv", dtype, nlohmann::json::object(), &m, configs);
  }
}

TEST_F(ClientOnDevice, SpmmAndSddmmDefaultsMatchCusparse) {
  for (const char* kernel : {"spmm", "sddmm"}) {
    const KernelFamily& family = *find_family(kernel);
    const nlohmann::json params = {{"k", 32}};
    const Problem problem = make_problem(family, params, precision_from_string("f32"));
    const CsrF64 m = generate_banded(2000, 6, 3);
    check_family(kernel, "f32", params, &m, testing::one_per_schedule(family, problem));
  }
}

// The dense families take a shape, not a matrix: their default and a seeded draw of their
// spaces (too large to run whole), against cuBLAS and transpose-GEMM-transpose through the client.
TEST_F(ClientOnDevice, GemmAndContractionsMatchCublas) {
  const std::pair<const char*, nlohmann::json> cases[] = {
      {"gemm", {{"m", 200}, {"n", 136}, {"k", 72}}},
      {"contraction", {{"preset", "sd_t_d1_1"}, {"extent", 8}}},
      {"contraction", {{"expression", "C[i,j,k,m] -= A[k,l,i] * B[j,l,m]"}, {"extent", 10}}}};
  for (const auto& [kernel, params] : cases)
    for (const char* dtype : {"f32", "f64"}) {
      const KernelFamily& family = *find_family(kernel);
      const Problem problem = make_problem(family, params, precision_from_string(dtype));
      const ParameterSpace space = family.space(problem);
      std::vector<Config> configs = {space.first_valid()};
      SpaceRng rng(7);
      for (const Config& c : space.sample(rng, 3)) configs.push_back(c);
      check_family(kernel, dtype, params, nullptr, configs);
    }
}

TEST_F(ClientOnDevice, AMatrixOnTheDeviceRunsItsOwnForms) {
  const KernelFamily& spmv = *find_family("spmv");
  const Problem problem = Problem::of(Dtype::F32);
  const CsrF64 m = stencil_empty_and_long();
  Workload w;
  w.matrix = m;
  const std::vector<float> values(m.values.begin(), m.values.end());
  DeviceMemory row_ptr(*cu_, m.row_ptr.size() * 4), col_idx(*cu_, m.col_idx.size() * 4), vals(*cu_, values.size() * 4);
  cu_->check(cu_->memcpy_htod(row_ptr.get(), m.row_ptr.data(), m.row_ptr.size() * 4), "upload");
  cu_->check(cu_->memcpy_htod(col_idx.get(), m.col_idx.data(), m.col_idx.size() * 4), "upload");
  cu_->check(cu_->memcpy_htod(vals.get(), values.data(), values.size() * 4), "upload");
  CsrF64 structure = m;
  structure.values.clear();  // read back from the device by the client
  const DeviceCsr on_device{row_ptr.get(), col_idx.get(), vals.get()};
  TunedKernel vendor = TunedKernel::with_answer({"spmv", "f32", {}}, structure, on_device, nullptr, options_);
  const Run theirs = launch(vendor, spmv.vendor_plan(w, problem));
  for (const Config& config : testing::one_per_schedule(spmv, problem)) {
    const std::optional<LaunchPlan> plan = prepared(spmv, w, problem, config);
    if (!plan) continue;
    TunedKernel ours = TunedKernel::with_answer({"spmv", "f32", {}}, structure, on_device,
                                                testing::answer_for(spmv, problem, config), options_);
    expect_matches(spmv, w, problem, *plan, launch(ours, *plan), theirs, "device-resident " + spmv.space(problem).canonical(config));
  }
}

// The graph families' plans loop until a device counter says stop: the client runs them with the
// worker's plan runner. One configuration a schedule, against the family's CPU reference (no
// vendor library does these).
TEST_F(ClientOnDevice, GraphFamiliesRunTheirLoopsAndMatchTheReference) {
  const CsrF64 graph = generate_rmat(10, 8, 3);
  for (const char* kernel : {"bfs", "sssp", "cc", "pagerank"}) {
    const KernelFamily& family = *find_family(kernel);
    const Precision precision = family.precisions().front();
    const Problem problem = make_problem(family, nullptr, precision);
    const Workload w{WorkloadKind::Graph, graph};
    const Reference reference = family.reference(w, problem);
    for (const Config& config : testing::one_per_schedule(family, problem)) {
      const std::string what = std::string(kernel) + " " + family.space(problem).canonical(config);
      const std::optional<LaunchPlan> plan = prepared(family, w, problem, config);
      if (!plan) continue;
      TunedKernel ours = TunedKernel::with_answer({kernel, to_string(precision), {}}, graph,
                                                  testing::answer_for(family, problem, config), options_);
      ASSERT_EQ(ours.runs(), "ktune") << what;
      const Run run = launch(ours, *plan);
      for (const PlanOutput& o : plan->outputs) {
        const Verdict v = family.verify(problem, o, run.outputs.at(o.buffer), reference.at(o.buffer),
                                        testing_support::check_data_of(*plan));
        EXPECT_TRUE(v.ok) << what << " " << o.buffer << ": " << v.message;
      }
    }
  }
}

}  // namespace
}  // namespace ktune
