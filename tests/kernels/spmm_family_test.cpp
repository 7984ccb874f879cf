#include "kernels/spmm/spmm_family.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>

#include "kernels/host_memory_limit.h"
#include "kernels/input_vector.h"
#include "kernels/spmm/spmm_operands.h"
#include "kernels/spmm/spmm_row_groups.h"
#include "random_csr.h"
#include "workload/generators.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

using testing_support::csr_with_row_lengths;
using testing_support::random_csr;

using testing_support::workload_of;

Problem problem(int32_t k, Dtype dtype = Dtype::F32) { return Problem::of(dtype, {{"k", k}}); }

template <typename T>
std::vector<T> contents(const DeviceBuffer& b) {
  std::vector<T> out(b.bytes.size() / sizeof(T));
  std::memcpy(out.data(), b.bytes.data(), b.bytes.size());
  return out;
}

const DeviceBuffer& buffer(const LaunchPlan& plan, const std::string& name) {
  if (const DeviceBuffer* b = plan.buffer(name)) return *b;
  throw std::runtime_error("no buffer " + name);
}

bool has_option(const KernelSource& s, const std::string& option) {
  return std::find(s.options.begin(), s.options.end(), option) != s.options.end();
}

bool aspt_plan(const SpmmConfig& c) { return c.schedule == SpmmSchedule::Aspt; }

int64_t ceil_power_of_two(int64_t n) {
  int64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

// The matrices the plan tests walk: random rows with empty ones, a hub row among short ones, an
// empty matrix, one row, and a stencil.
std::vector<CsrF64> plan_matrices() {
  return {random_csr(300, 200, 20, 1), csr_with_row_lengths({3, 0, 2000, 1, 0, 0, 70, 5}, 2100), random_csr(0, 5, 0, 3),
          random_csr(1, 50, 50, 4), generate_stencil_2d(20)};
}

TEST(SpmmSpace, EveryConfigurationKeepsLanesBusyAndItsSumsInRegisters) {
  for (int32_t k : {1, 2, 3, 12, 32, 100, 1024}) {
    const ParameterSpace space = spmm_space(k);
    const std::vector<Config> configs = space.enumerate();
    std::set<int> schedules;
    for (const Config& config : configs) {
      const SpmmConfig c = SpmmConfig::from(config, k);
      schedules.insert(static_cast<int>(c.schedule));
      EXPECT_EQ(k % c.vec, 0) << space.canonical(config);
      EXPECT_LE(c.k_tile, ceil_power_of_two(k));
      EXPECT_GE(int64_t{c.k_tile} * 8, k);
      EXPECT_LE(c.runs(), 8);
      EXPECT_TRUE(c.lanes * c.vec <= c.k_tile || (c.lanes == 4 && c.vec == 1)) << space.canonical(config);
      EXPECT_EQ(c.runs() * c.lanes * c.vec, std::max(c.k_tile, c.lanes * c.vec));
      EXPECT_TRUE(c.schedule == SpmmSchedule::NonzeroSplit || c.items == 32);
      EXPECT_TRUE(c.schedule == SpmmSchedule::HeavyLight || c.threshold == 64);
      EXPECT_TRUE(c.schedule == SpmmSchedule::RowSplit || c.block >= 128);
      EXPECT_TRUE(c.schedule != SpmmSchedule::Aspt || c.k_tile <= 128);
      // aspt's staged tile fits the 48 KiB of static shared memory a block may declare.
      EXPECT_LE(int64_t{c.slots(Dtype::F64)} * c.k_tile * 8, 48 * 1024);
    }
    EXPECT_EQ(schedules.size(), 4u) << "k " << k;  // every schedule takes every K
    EXPECT_EQ(space.describe()["configurations"], configs.size());
  }
}

TEST(SpmmSpace, RefusesWhatTheKernelsCannotRun) {
  const ParameterSpace space = spmm_space(12);
  const Config ok =
      space.from_json({{"schedule", "row_split"}, {"block", 128}, {"lanes", 4}, {"vec", 2}, {"k_tile", 8}});
  EXPECT_TRUE(space.valid(ok)) << space.violation(ok);
  auto with = [&](const char* name, int64_t value) {
    Config c = ok;
    c[name] = value;
    return space.violation(c);
  };
  EXPECT_NE(with("vec", 4).find("lanes * vec"), std::string::npos);  // 16 columns a group run, tile 8
  EXPECT_NE(with("k_tile", 32).find("rounded up"), std::string::npos);
  EXPECT_NE(with("lanes", 8).find("lanes * vec"), std::string::npos);
  EXPECT_NE(with("items", 128).find("items"), std::string::npos);
  EXPECT_NE(with("threshold", 256).find("threshold"), std::string::npos);
  EXPECT_NE(spmm_space(9).violation(ok).find("vec must divide"), std::string::npos);
  EXPECT_NE(spmm_space(1000).violation(ok).find("reads A again"), std::string::npos);
  Config wide = ok;
  wide["k_tile"] = 256;
  wide["vec"] = 1;
  EXPECT_NE(spmm_space(256).violation(wide).find("registers"), std::string::npos);  // 64 runs a lane
  EXPECT_THROW(SpmmConfig::from(wide, 256), InputError);
  Config staged = wide;
  staged["schedule"] = static_cast<int64_t>(SpmmSchedule::Aspt);
  staged["lanes"] = 32;
  EXPECT_NE(spmm_space(256).violation(staged).find("shared memory"), std::string::npos);
}

TEST(SpmmFamily, TakesKFrom1To1024AndF32OrF64) {
  const SpmmFamily family;
  EXPECT_EQ(make_problem(family, nullptr, Precision::uniform(Dtype::F64)).key(), "{\"k\":32}");
  EXPECT_EQ(spmm_k(make_problem(family, {{"k", 1024}}, Precision::uniform(Dtype::F32))), 1024);
  EXPECT_EQ(spmm_k(Problem::of(Dtype::F32)), kSpmmDefaultK);
  for (const nlohmann::json& bad :
       {nlohmann::json{{"k", 0}}, nlohmann::json{{"k", 1025}}, nlohmann::json{{"k", 2.5}}, nlohmann::json{{"n", 3}}})
    EXPECT_THROW(make_problem(family, bad, Precision::uniform(Dtype::F32)), InputError) << bad.dump();
  EXPECT_THROW(make_problem(family, nullptr, Precision::uniform(Dtype::BF16)), InputError);
  EXPECT_THROW(make_problem(family, nullptr, {Dtype::F32, Dtype::F64, Dtype::F32}), InputError);
}

// A, B and C over 64 GiB are refused before anything is allocated: a matrix whose B alone is
// 2^24 columns x 1024 x 8 bytes = 128 GiB in f64 (its CSR is a few bytes: no nonzeros).
TEST(SpmmFamily, RefusesAProblemNoDeviceHolds) {
  const SpmmFamily family;
  Workload w;
  w.matrix.rows = 1;
  w.matrix.cols = 1 << 24;
  w.matrix.row_ptr = {0, 0};
  EXPECT_THROW(family.check_problem(w, problem(1024, Dtype::F64)), LimitError);
  try {
    family.check_problem(w, problem(1024, Dtype::F64));
  } catch (const LimitError& e) {
    EXPECT_NE(std::string(e.what()).find("smaller k"), std::string::npos) << e.what();
  }
  // 32 GiB of B: what a device holds, refused only by a host without twice that memory.
  const double b_bytes = double(1 << 24) * 256 * 8;
  for (const Problem& p : {problem(256, Dtype::F64), problem(512, Dtype::F32)}) {
    if (b_bytes <= kHostOperandShare * physical_memory_bytes()) {
      EXPECT_NO_THROW(family.check_problem(w, p));
    } else {
      try {
        family.check_problem(w, p);
        ADD_FAILURE() << "B of 32 GiB passed on a host of " << physical_memory_bytes() << " bytes";
      } catch (const LimitError& e) {
        EXPECT_NE(std::string(e.what()).find("MiB of host memory"), std::string::npos) << e.what();
      }
    }
  }
  EXPECT_DOUBLE_EQ(spmm_device_bytes(w.matrix, 1024, Dtype::F32), 2 * 4 + (double(1 << 24) + 1) * 1024 * 4);
}

TEST(SpmmFamily, SourcesAreSpecialisedAndDistinctButForTheHostSideChoices) {
  const SpmmFamily family;
  const int32_t k = 24;
  std::set<std::pair<std::string, std::vector<std::string>>> kernels;
  size_t distinct_plans = 0;
  for (const Config& config : family.space(problem(k)).enumerate()) {
    const SpmmConfig c = SpmmConfig::from(config, k);
    for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
      const KernelSource s = family.source(problem(k, dtype), config);
      std::vector<std::string> entries = {"spmm_" + c.schedule_name()};
      if (c.schedule == SpmmSchedule::HeavyLight) entries = {"spmm_light_rows", "spmm_heavy_chunks"};
      if (c.adds_into_c()) entries.push_back("spmm_zero_rows");
      EXPECT_EQ(s.entries, entries);
      for (const std::string& e : s.entries) EXPECT_NE(s.code.find(e + "("), std::string::npos) << e;
      EXPECT_TRUE(has_option(s, dtype == Dtype::F32 ? "-DKT_VALUE=float" : "-DKT_VALUE=double"));
      for (const auto& [name, value] : {std::pair<const char*, int32_t>{"K", k},
                                        {"BLOCK", c.block},
                                        {"LANES", c.lanes},
                                        {"VEC", c.vec},
                                        {"K_TILE", c.k_tile}})
        EXPECT_TRUE(has_option(s, "-DKT_" + std::string(name) + "=" + std::to_string(value))) << name;
      EXPECT_EQ(has_option(s, "-DKT_ROW_LIST"), c.schedule == SpmmSchedule::HeavyLight);
      EXPECT_EQ(has_option(s, "-DKT_SLOTS=" + std::to_string(c.slots(dtype))), c.schedule == SpmmSchedule::Aspt);
      kernels.insert({s.code, s.options});
      distinct_plans += c.threshold == 64 && c.items == 32;  // host-side choices share a kernel
    }
  }
  EXPECT_EQ(kernels.size(), distinct_plans);
}

TEST(SpmmFamily, ReferenceIsTheNaiveProduct) {
  const SpmmFamily family;
  const CsrF64 a = random_csr(37, 23, 9, 5);
  for (int32_t k : {1, 5, 32}) {
    const std::vector<double> c = family.reference(workload_of(a), problem(k)).at("c");
    const std::vector<double> b = deterministic_input_vector(static_cast<size_t>(a.cols) * k);
    std::vector<double> dense(static_cast<size_t>(a.rows) * a.cols, 0.0);
    for (int32_t r = 0; r < a.rows; ++r)
      for (int32_t i = a.row_ptr[r]; i < a.row_ptr[r + 1]; ++i) dense[r * a.cols + a.col_idx[i]] = a.values[i];
    ASSERT_EQ(c.size(), static_cast<size_t>(a.rows) * k);
    for (int32_t r = 0; r < a.rows; ++r)
      for (int32_t j = 0; j < k; ++j) {
        double sum = 0;
        for (int32_t m = 0; m < a.cols; ++m) sum += dense[r * a.cols + m] * b[m * k + j];
        EXPECT_NEAR(c[r * k + j], sum, 1e-12) << r << "," << j;
      }
  }
}

TEST(SpmmOperands, BIsTheInputSequenceRowMajorInTheKernelsPrecision) {
  const std::vector<double> b = deterministic_input_matrix(7, 5);
  ASSERT_EQ(b.size(), 35u);
  EXPECT_EQ(b[3 * 5 + 2], deterministic_input_value(17));
  EXPECT_EQ(b, deterministic_input_vector(35));
  EXPECT_EQ(contents<double>(dense_input_buffer("b", 7, 5, Dtype::F64)), b);
  const std::vector<float> f32 = contents<float>(dense_input_buffer("b", 7, 5, Dtype::F32));
  EXPECT_EQ(std::vector<double>(f32.begin(), f32.end()), b);  // exact in fp32
  EXPECT_NE(b[0 * 5 + 1], b[1 * 5 + 0]);                      // a transposed read reads other values
}

TEST(SpmmFamily, PrepareUploadsCsrAndBInTheKernelsPrecision) {
  const SpmmFamily family;
  const Workload w = workload_of(random_csr(120, 90, 15, 6));
  for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
    const Problem p = problem(12, dtype);
    const LaunchPlan plan = family.prepare(w, p, family.space(p).first_valid());
    EXPECT_EQ(plan.family, "spmm");
    EXPECT_EQ(plan.problem.key(), p.key());
    EXPECT_EQ(contents<int32_t>(buffer(plan, "row_ptr")), w.matrix.row_ptr);
    EXPECT_EQ(contents<int32_t>(buffer(plan, "col_idx")), w.matrix.col_idx);
    const std::vector<double> b = deterministic_input_matrix(90, 12);
    if (dtype == Dtype::F64) {
      EXPECT_EQ(contents<double>(buffer(plan, "values")), w.matrix.values);
      EXPECT_EQ(contents<double>(buffer(plan, "b")), b);
    } else {
      const std::vector<float> values = contents<float>(buffer(plan, "values"));
      ASSERT_EQ(values.size(), w.matrix.values.size());
      for (size_t i = 0; i < values.size(); ++i) EXPECT_EQ(values[i], static_cast<float>(w.matrix.values[i]));
      EXPECT_EQ(contents<float>(buffer(plan, "b")), std::vector<float>(b.begin(), b.end()));
    }
    const DeviceBuffer& c = buffer(plan, "c");
    EXPECT_TRUE(c.bytes.empty());
    EXPECT_EQ(c.size, 120 * 12 * dtype_size(dtype));
    ASSERT_EQ(plan.outputs.size(), 1u);
    EXPECT_EQ(plan.outputs[0].buffer, "c");
    EXPECT_EQ(plan.outputs[0].elements, 120u * 12);
    EXPECT_EQ(plan.outputs[0].dtype, dtype);
    EXPECT_EQ(plan.prepare_seconds, 0);  // row_split converts nothing
  }
}

// Launches cover every group with the fewest blocks, K with the fewest tiles, and pass the
// kernels' arguments in order; a plan that adds into rows of C zeroes exactly those rows first.
TEST(SpmmFamily, LaunchesCoverTheWorkAndZeroExactlyTheRowsAddedInto) {
  const SpmmFamily family;
  int zeroing = 0, heavy = 0;
  for (const CsrF64& m : plan_matrices()) {
    const Workload w = workload_of(m);
    for (int32_t k : {3, 40}) {
      const Problem p = problem(k);
      for (const Config& config : family.space(p).enumerate()) {
        const SpmmConfig c = SpmmConfig::from(config, k);
        SCOPED_TRACE(family.space(p).canonical(config) + " k " + std::to_string(k));
        const LaunchPlan plan = family.prepare(w, p, config);
        const std::vector<LaunchStep> launches = family.launches(w, p, config);
        ASSERT_EQ(launches.size(), plan.steps.size());
        EXPECT_NO_THROW(check_plan(plan));
        std::vector<int32_t> zeroed;
        if (c.schedule == SpmmSchedule::NonzeroSplit) zeroed = segment_start_rows(m, c.items);
        const HeavyLightRows split = heavy_light_rows(m, c.threshold);
        if (c.schedule == SpmmSchedule::HeavyLight) zeroed = split.heavy;
        size_t next = 0;
        if (!zeroed.empty()) {
          ++zeroing;
          const LaunchStep& zero = plan.steps.at(next++);
          EXPECT_EQ(zero.entry, "spmm_zero_rows");
          EXPECT_EQ(contents<int32_t>(buffer(plan, "atomic_rows")), zeroed);
          EXPECT_EQ(std::get<int32_t>(zero.args[0].scalar), static_cast<int32_t>(zeroed.size()));
          EXPECT_GE(int64_t{zero.grid.x} * zero.block.x, static_cast<int64_t>(zeroed.size()) * k);
          EXPECT_LT(int64_t{zero.grid.x - 1} * zero.block.x, static_cast<int64_t>(zeroed.size()) * k);
          EXPECT_EQ(zero.args[2].buffer, "c");
        } else {
          EXPECT_EQ(plan.buffer("atomic_rows"), nullptr);
        }
        // The matrix kernels: groups to cover, the leading arguments, then CSR, B and C.
        std::vector<std::pair<std::string, int64_t>> kernels;
        switch (c.schedule) {
          case SpmmSchedule::RowSplit:
            kernels = {{"spmm_row_split", m.rows}};
            break;
          case SpmmSchedule::NonzeroSplit:
            kernels = {{"spmm_nonzero_split", (m.rows + m.nnz() + c.items - 1) / c.items}};
            break;
          case SpmmSchedule::HeavyLight:
            kernels = {{"spmm_light_rows", static_cast<int64_t>(split.light.size())}};
            if (!split.heavy.empty()) kernels.push_back({"spmm_heavy_chunks", split.chunk_count()});
            heavy += !split.heavy.empty();
            break;
          case SpmmSchedule::Aspt:
            kernels = {{"spmm_aspt", m.rows}};
            break;
        }
        ASSERT_EQ(plan.steps.size(), next + kernels.size());
        for (const auto& [entry, groups] : kernels) {
          const LaunchStep& s = plan.steps.at(next);
          EXPECT_EQ(s.entry, entry);
          EXPECT_EQ(launches.at(next).grid.x, s.grid.x);
          ++next;
          EXPECT_EQ(s.block.x, static_cast<uint32_t>(c.block));
          EXPECT_GE(int64_t{s.grid.x} * c.groups_per_block(), groups);
          EXPECT_TRUE(groups == 0 || int64_t{s.grid.x - 1} * c.groups_per_block() < groups);
          EXPECT_EQ(int64_t{s.grid.y}, (k + c.k_tile - 1) / c.k_tile);
          const bool aspt = c.schedule == SpmmSchedule::Aspt;
          const std::vector<std::string> tail = {"row_ptr", aspt ? "aspt_cols" : "col_idx",
                                                 aspt ? "aspt_values" : "values", "b", "c"};
          ASSERT_GE(s.args.size(), tail.size());
          for (size_t i = 0; i < tail.size(); ++i) EXPECT_EQ(s.args[s.args.size() - tail.size() + i].buffer, tail[i]);
          const bool over_rows = entry == "spmm_row_split" || entry == "spmm_nonzero_split" || aspt;
          EXPECT_EQ(std::get<int32_t>(s.args[0].scalar), over_rows ? m.rows : groups);
        }
        if (c.schedule == SpmmSchedule::HeavyLight) {
          EXPECT_EQ(contents<int32_t>(buffer(plan, "light_rows")), split.light);
          if (!split.heavy.empty()) {
            EXPECT_EQ(contents<int32_t>(buffer(plan, "heavy_chunks")), split.chunks);
          }
        }
        EXPECT_EQ(plan.prepare_seconds > 0, c.adds_into_c() || aspt_plan(c)) << plan.prepare_seconds;
      }
    }
  }
  EXPECT_GT(zeroing, 0);
  EXPECT_GT(heavy, 0);
}

// The rows segment_start_rows names are the rows in progress where a segment begins, the first
// segment too: walked item by item along the merge path (a row's nonzeros, then its end).
TEST(SpmmRowGroups, SegmentStartsAreTheRowsInProgressAtEverySegmentStart) {
  const CsrF64 a = csr_with_row_lengths({0, 5, 0, 0, 9, 1, 0, 30, 2, 0}, 40);
  for (int64_t items : {1, 3, 4, 7, 16, 32, 128}) {
    std::vector<int32_t> want;
    int64_t item = 0;
    for (int32_t r = 0; r < a.rows; ++r) {
      const int64_t first = item, last = item + a.row_length(r);
      for (int64_t start = (first + items - 1) / items * items; start <= last; start += items)
        if (want.empty() || want.back() != r) want.push_back(r);
      item = last + 1;
    }
    EXPECT_EQ(segment_start_rows(a, items), want) << "items " << items;
  }
}

TEST(SpmmRowGroups, HeavyRowsAreCutIntoChunksThatCoverThemOnce) {
  const CsrF64 a = csr_with_row_lengths({64, 65, 0, 200, 3, 128, 129}, 300);
  const HeavyLightRows split = heavy_light_rows(a, 64);
  EXPECT_EQ(split.light, (std::vector<int32_t>{0, 2, 4}));
  EXPECT_EQ(split.heavy, (std::vector<int32_t>{1, 3, 5, 6}));
  std::vector<int32_t> covered(static_cast<size_t>(a.nnz()), 0);
  for (int64_t i = 0; i < split.chunk_count(); ++i) {
    const int32_t row = split.chunks[2 * i], first = split.chunks[2 * i + 1];
    EXPECT_TRUE(std::binary_search(split.heavy.begin(), split.heavy.end(), row));
    for (int32_t nz = first; nz < std::min(first + 64, a.row_ptr[row + 1]); ++nz) ++covered[nz];
  }
  for (int32_t r : split.heavy)
    for (int32_t nz = a.row_ptr[r]; nz < a.row_ptr[r + 1]; ++nz) EXPECT_EQ(covered[nz], 1) << nz;
  EXPECT_EQ(split.chunk_count(), 2 + 4 + 2 + 3);
}

TEST(SpmmFamily, VerifiesCWithEachRowsLengthAsItsTolerance) {
  const SpmmFamily family;
  const Workload w = workload_of(random_csr(300, 200, 40, 3));
  const Problem p = problem(6);
  const LaunchPlan plan = family.prepare(w, p, family.space(p).first_valid());
  const std::vector<double> expected = family.reference(w, p).at("c");
  std::vector<float> c(expected.begin(), expected.end());
  const std::string_view got(reinterpret_cast<const char*>(c.data()), c.size() * sizeof(float));
  CheckData data;
  for (const auto& [name, bytes] : plan.check_data) data[name] = bytes.view();
  EXPECT_TRUE(family.verify(p, plan.outputs[0], got, expected, data).ok);
  c[6 * 17 + 4] += 1.0f;
  const Verdict wrong = family.verify(p, plan.outputs[0], got, expected, data);
  EXPECT_FALSE(wrong.ok);
  EXPECT_NE(wrong.message.find("element " + std::to_string(6 * 17 + 4)), std::string::npos) << wrong.message;
  EXPECT_NE(family.verify(p, plan.outputs[0], got, expected, {}).message.find("row lengths"), std::string::npos);
}

// The reduction length of element (r, j) is row r's length: a long row's sums may err more.
TEST(SpmmFamily, TheToleranceOfAnElementIsItsRowsLength) {
  const SpmmFamily family;
  const Workload w = workload_of(csr_with_row_lengths({1, 4000}, 4000));
  const Problem p = problem(3);
  const LaunchPlan plan = family.prepare(w, p, family.space(p).first_valid());
  const std::vector<double> expected = family.reference(w, p).at("c");
  CheckData data;
  for (const auto& [name, bytes] : plan.check_data) data[name] = bytes.view();
  const double largest = *std::max_element(expected.begin(), expected.end());
  // 100 units of roundoff of the largest output: inside row 1's bound (8 (4000 + 2) u R), far
  // outside row 0's (8 (1 + 2) u R).
  const double error = 100 * std::ldexp(1.0, -24) * largest;
  for (size_t element : {size_t{1}, size_t{4}}) {
    std::vector<float> c(expected.begin(), expected.end());
    c[element] = static_cast<float>(expected[element] + error);
    const std::string_view got(reinterpret_cast<const char*>(c.data()), c.size() * sizeof(float));
    EXPECT_EQ(family.verify(p, plan.outputs[0], got, expected, data).ok, element / 3 == 1) << element;
  }
}

TEST(SpmmFamily, VendorCallsNameTheCsrPlansBuffersWithEveryCsrAlgorithm) {
  const SpmmFamily family;
  const Workload w = workload_of(random_csr(120, 90, 10, 4));
  const Problem p = problem(48, Dtype::F64);
  const std::vector<VendorCall> calls = family.vendor_calls(w, p);
  ASSERT_EQ(calls.size(), 4u);
  const LaunchPlan plan = family.vendor_plan(w, p);
  std::set<std::string> labels, algorithms;
  for (const VendorCall& call : calls) {
    EXPECT_EQ(call.name, "cusparse_spmm");
    EXPECT_EQ(call.args["nnz"], w.matrix.nnz());
    EXPECT_EQ(call.args["k"], 48);
    EXPECT_EQ(call.args["rows"], 120);
    EXPECT_EQ(call.args["cols"], 90);
    for (const char* role : {"row_ptr", "col_idx", "values", "b", "c"})
      EXPECT_NE(plan.buffer(call.args[role].get<std::string>()), nullptr) << role;
    labels.insert(call.label);
    algorithms.insert(call.args["alg"].get<std::string>());
  }
  EXPECT_EQ(labels.size(), 4u);
  EXPECT_EQ(algorithms, (std::set<std::string>{"alg_default", "csr_alg1", "csr_alg2", "csr_alg3"}));
  EXPECT_EQ(buffer(plan, "c").size, 120u * 48 * 8);
}

TEST(SpmmFamily, FlopsAndCompulsoryBytes) {
  const SpmmFamily family;
  const Workload w = workload_of(random_csr(200, 150, 10, 10));
  const double nnz = static_cast<double>(w.matrix.nnz());
  EXPECT_DOUBLE_EQ(family.flops(w, problem(64)), 2 * nnz * 64);
  // row_ptr (201 ints), col_idx and values, B (150 x k), C (200 x k).
  EXPECT_DOUBLE_EQ(family.min_bytes(w, problem(64)), 201 * 4 + nnz * 8 + (150 + 200) * 64 * 4);
  EXPECT_DOUBLE_EQ(family.min_bytes(w, problem(8, Dtype::F64)), 201 * 4 + nnz * 12 + (150 + 200) * 8 * 8);
}

TEST(SpmmFamily, RefusesAnInvalidConfiguration) {
  const SpmmFamily family;
  const Workload w = workload_of(random_csr(10, 10, 3, 9));
  Config bad = family.space(problem(32)).first_valid();
  bad["items"] = 128;  // row_split walks no merge items
  for (const Problem& p : {problem(32), problem(32, Dtype::F64)}) {
    EXPECT_THROW(family.source(p, bad), InputError);
    EXPECT_THROW(family.launches(w, p, bad), InputError);
    EXPECT_THROW(family.prepare(w, p, bad), InputError);
    EXPECT_THROW(family.estimate(w, p, bad), InputError);
  }
  // A configuration of one K is not one of another.
  const Config vec4 =
      family.space(problem(32))
          .from_json({{"schedule", "row_split"}, {"block", 64}, {"lanes", 8}, {"vec", 4}, {"k_tile", 32}});
  EXPECT_NO_THROW(family.source(problem(32), vec4));
  EXPECT_THROW(family.source(problem(30), vec4), InputError);
}

// A tune's later configurations borrow the first plan's inputs: same bytes, no copy. aspt reads
// its own reordered nonzeros instead of col_idx and values; a plan after it builds those again.
TEST(SpmmFamily, PrepareNextSharesTheInputsAndKeepsItsOwnLaunches) {
  const SpmmFamily family;
  const Workload w = workload_of(csr_with_row_lengths({3, 0, 700, 1, 90, 0, 2}, 800));
  const Problem p = problem(16, Dtype::F64);
  const LaunchPlan first = family.prepare(w, p, family.space(p).first_valid());
  for (const Config& config : family.space(p).enumerate()) {
    const bool aspt = SpmmConfig::from(config, 16).schedule == SpmmSchedule::Aspt;
    const LaunchPlan fresh = family.prepare(w, p, config);
    EXPECT_EQ(fresh.buffer("col_idx") == nullptr, aspt);
    EXPECT_EQ(fresh.buffer("aspt_cols") == nullptr, !aspt);
    for (const LaunchPlan* previous : {&first, &fresh}) {
      const LaunchPlan next = family.prepare_next(w, p, config, *previous);
      ASSERT_EQ(next.buffers.size(), fresh.buffers.size());
      for (size_t i = 0; i < fresh.buffers.size(); ++i) {
        EXPECT_EQ(fresh.buffers[i].name, next.buffers[i].name);
        EXPECT_EQ(fresh.buffers[i].size, next.buffers[i].size);
        EXPECT_EQ(fresh.buffers[i].bytes.view(), next.buffers[i].bytes.view()) << fresh.buffers[i].name;
      }
      for (const char* shared : {"row_ptr", "col_idx", "values", "b"}) {
        if (!next.buffer(shared) || !previous->buffer(shared)) continue;
        EXPECT_EQ(buffer(next, shared).bytes.data(), buffer(*previous, shared).bytes.data()) << shared << " was copied";
      }
      ASSERT_EQ(next.steps.size(), fresh.steps.size());
      for (size_t i = 0; i < fresh.steps.size(); ++i) {
        EXPECT_EQ(next.steps[i].entry, fresh.steps[i].entry);
        EXPECT_EQ(next.steps[i].grid.x, fresh.steps[i].grid.x);
      }
    }
  }
  const Config row_split = family.space(p).first_valid();
  const LaunchPlan aspt = family.prepare(w, p,
                                         family.space(p).from_json({{"schedule", "aspt"},
                                                                    {"block", 128},
                                                                    {"lanes", 4},
                                                                    {"vec", 1},
                                                                    {"k_tile", 16},
                                                                    {"items", 32},
                                                                    {"threshold", 64}}));
  EXPECT_EQ(buffer(family.prepare_next(w, p, row_split, aspt), "col_idx").bytes.view(),
            buffer(first, "col_idx").bytes.view());
}

// The SAAKE walk starts from the smallest kernel of every schedule, whatever K, and each of its
// factor-2 steps stays in the space or says it would leave it.
TEST(SpmmFamily, CanonicalMovesStartInTheSpaceAndStayThere) {
  const SpmmFamily family;
  for (int32_t k : {1, 3, 24, 32, 128, 1000, 1024}) {
    const ParameterSpace space = family.space(problem(k));
    const CanonicalMoves moves = family.canonical_moves(problem(k));
    std::set<int64_t> schedules;
    for (const Config& start : moves.starts) {
      ASSERT_TRUE(space.valid(start)) << "k " << k << ": " << space.violation(start);
      schedules.insert(start.at("schedule"));
    }
    EXPECT_EQ(schedules.size(), 4u);
    int steps = 0;
    for (const CanonicalDirection& d : moves.directions) {
      for (Config at : moves.starts) {
        for (int i = 0; i < 12; ++i) {
          const std::optional<Config> next = d.step(at);
          if (!next) break;
          EXPECT_TRUE(space.valid(*next)) << d.name << " from " << space.canonical(at);
          EXPECT_NE(*next, at);
          EXPECT_EQ(next->at("schedule"), at.at("schedule"));
          at = *next;
          ++steps;
        }
      }
    }
    EXPECT_GT(steps, k == 1 ? 0 : 4) << "k " << k;
  }
}

TEST(SpmmFamily, DescribesItselfAndVersionsItsOwnTemplates) {
  const SpmmFamily family;
  EXPECT_EQ(family.workload_kind(), WorkloadKind::SparseMatrix);
  EXPECT_NE(family.description().find("heavy_light"), std::string::npos);
  EXPECT_EQ(family_version(family).size(), 64u);
  for (std::string_view t : family.templates()) EXPECT_FALSE(t.empty());
}

}  // namespace
}  // namespace ktune
