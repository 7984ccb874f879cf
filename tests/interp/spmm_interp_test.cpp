// CI's check of every SpMM device kernel without a GPU: the PTX interpreter runs the launch plan
// of every configuration of the space (fp32 and fp64, K = 24: vector loads of 1, 2 and 4, and K
// tiles that overrun K) on small matrices with empty rows and a very long row, and C must pass
// the family's own verification (kernels/output_check.h) against the CPU reference. The spaces
// of the narrowest and widest K run on one matrix.
#include <gtest/gtest.h>

#include <cstring>
#include <future>
#include <map>
#include <random>
#include <utility>

#include "gpu/thread_pool.h"
#include "kernels/spmm/spmm_aspt_tiling.h"
#include "kernels/spmm/spmm_family.h"
#include "model/interp/interpreter.h"
#include "model/ptx/ptx_parser.h"
#include "tests/kernels/plan_outputs.h"
#include "tests/kernels/random_csr.h"
#include "tests/ptx/spmv_ptx_corpus.h"

namespace ktune::interp {
namespace {

using testing_support::output_bytes;
using testing_support::check_data_of;

using testing_support::compile_to_ptx_cached;
using testing_support::random_csr;

using testing_support::workload_of;
using testing_support::matrix_with_long_row;


// The PTX of each configuration's kernel, compiled on the thread pool and cached on disk (items
// and threshold choose the plan, not the kernel: those configurations share one).
std::map<Config, std::shared_ptr<const ptx::PtxModule>> modules_of(const SpmmFamily& family, const Problem& p,
                                                                   const std::vector<Config>& configs) {
  ThreadPool pool;
  std::map<std::string, std::shared_future<std::string>> by_source;
  std::vector<std::pair<Config, std::shared_future<std::string>>> pending;
  for (const Config& config : configs) {
    KernelSource s = family.source(p, config);
    std::string key = s.code;
    for (const std::string& o : s.options) key += "\n" + o;
    auto it = by_source.find(key);
    if (it == by_source.end()) {
      CompileRequest request{std::move(s.code), std::move(s.entries), std::move(s.options), "compute_90"};
      it = by_source.emplace(key, pool.submit([request] { return compile_to_ptx_cached(request); }).share()).first;
    }
    pending.emplace_back(config, it->second);
  }
  std::map<std::string, std::shared_ptr<const ptx::PtxModule>> parsed;
  std::map<Config, std::shared_ptr<const ptx::PtxModule>> out;
  for (auto& [config, ptx] : pending) {
    std::shared_ptr<const ptx::PtxModule>& module = parsed[ptx.get()];
    if (!module) module = std::make_shared<const ptx::PtxModule>(ptx::parse_ptx(ptx.get()));
    out[config] = module;
  }
  return out;
}

struct Case {
  std::string name;
  Workload workload;
};

// Runs every configuration of `configs` on every case; returns how many plans ran.
int expect_reference(const std::vector<Case>& cases, int32_t k, Dtype dtype, const std::vector<Config>& configs) {
  const SpmmFamily family;
  const Problem p = Problem::of(dtype, {{"k", k}});
  const auto modules = modules_of(family, p, configs);
  int ran = 0;
  for (const Case& c : cases) {
    const std::vector<double> reference = family.reference(c.workload, p).at("c");
    for (const Config& config : configs) {
      SCOPED_TRACE(family.space(p).canonical(config) + " k=" + std::to_string(k) + " " + to_string(dtype) + " on " +
                   c.name);
      const LaunchPlan plan = family.prepare(c.workload, p, config);
      std::vector<double> got;
      try {
        got = std::move(compute_outputs(*modules.at(config), plan).at("c"));  // a copy here trips gcc 12 -O3 -Wnonnull
      } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
        continue;
      }
      const Verdict v = family.verify(p, plan.outputs.at(0), output_bytes(got, dtype), reference, check_data_of(plan));
      EXPECT_TRUE(v.ok) << v.message;
      ++ran;
    }
  }
  return ran;
}

std::vector<Case> small_cases() {
  return {{"long row", workload_of(matrix_with_long_row(157, 2200, 2000, 7))},
          {"random", workload_of(random_csr(120, 90, 12, 11))},
          {"all empty", workload_of(random_csr(37, 20, 0, 3))}};
}

TEST(SpmmInterp, EveryConfigurationComputesTheReference) {
  const std::vector<Config> configs = SpmmFamily().space(Problem::of(Dtype::F32, {{"k", 24}})).enumerate();
  int ran = 0;
  for (Dtype dtype : {Dtype::F32, Dtype::F64}) ran += expect_reference(small_cases(), 24, dtype, configs);
  EXPECT_EQ(ran, static_cast<int>(configs.size()) * 2 * 3);
}

// K = 1 and 3 (no vector loads; groups wider than their K tile) and 1024 (several K tiles of up
// to 1024 columns, 8 runs a lane), every configuration of each on one matrix with a long row.
TEST(SpmmInterp, NarrowAndWideKComputeTheReference) {
  const std::vector<Case> cases = {{"long row", workload_of(matrix_with_long_row(41, 1100, 1000, 5))}};
  for (int32_t k : {1, 3, 1024}) {
    const std::vector<Config> configs = SpmmFamily().space(Problem::of(Dtype::F32, {{"k", k}})).enumerate();
    for (Dtype dtype : {Dtype::F32, Dtype::F64}) expect_reference(cases, k, dtype, configs);
  }
}

// Rows that share most of a pool of 400 columns: every panel has more dense columns than a tile
// has slots, so the aspt kernel stages several tiles a panel, its rows' runs split between them.
TEST(SpmmInterp, AsptStagesSeveralTilesAPanel) {
  std::vector<int32_t> pool(400);
  for (int32_t i = 0; i < 400; ++i) pool[i] = 3 * i;
  CsrF64 m = random_csr(64, 1200, 0, 1);
  m.col_idx.clear();
  m.row_ptr = {0};
  std::mt19937 rng(9);
  for (int32_t r = 0; r < m.rows; ++r) {
    std::vector<int32_t> row = pool;
    std::shuffle(row.begin(), row.end(), rng);
    row.resize(300);
    std::sort(row.begin(), row.end());
    m.col_idx.insert(m.col_idx.end(), row.begin(), row.end());
    m.row_ptr.push_back(static_cast<int32_t>(m.col_idx.size()));
  }
  m.values.assign(m.col_idx.size(), 0.5);
  const std::vector<Case> cases = {{"shared pool", workload_of(m)}};
  std::vector<Config> configs;
  for (const Config& config : SpmmFamily().space(Problem::of(Dtype::F32, {{"k", 24}})).enumerate()) {
    const SpmmConfig c = SpmmConfig::from(config, 24);
    if (c.schedule != SpmmSchedule::Aspt) continue;
    configs.push_back(config);
    EXPECT_GT(aspt_tiling(m, c.groups_per_block(), c.slots(Dtype::F32)).tile_ptr[1], 1);
  }
  ASSERT_FALSE(configs.empty());
  for (Dtype dtype : {Dtype::F32, Dtype::F64}) expect_reference(cases, 24, dtype, configs);
}

// The check has teeth: a plan whose B is read one row off fails it.
TEST(SpmmInterp, AWrongProductFailsTheCheck) {
  const SpmmFamily family;
  const Problem p = Problem::of(Dtype::F32, {{"k", 8}});
  const Workload w = workload_of(random_csr(60, 40, 10, 5));
  const Config config = family.space(p).first_valid();
  LaunchPlan plan = family.prepare(w, p, config);
  std::vector<int32_t> shifted = w.matrix.col_idx;
  for (int32_t& c : shifted) c = (c + 1) % w.matrix.cols;
  std::vector<std::byte> bytes(shifted.size() * 4);
  std::memcpy(bytes.data(), shifted.data(), bytes.size());
  for (DeviceBuffer& b : plan.buffers)
    if (b.name == "col_idx") b.bytes = HostBytes(std::move(bytes));
  const auto modules = modules_of(family, p, {config});
  const std::vector<double> got = compute_outputs(*modules.at(config), plan).at("c");
  const Verdict v = family.verify(p, plan.outputs.at(0), output_bytes(got, Dtype::F32), family.reference(w, p).at("c"),
                                  check_data_of(plan));
  EXPECT_FALSE(v.ok);
}

}  // namespace
}  // namespace ktune::interp
