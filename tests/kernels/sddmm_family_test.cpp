#include "kernels/sddmm/sddmm_family.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

#include "kernels/host_memory_limit.h"
#include "kernels/sddmm/sddmm_dense_input.h"
#include "kernels/sddmm/sddmm_tiles.h"
#include "random_csr.h"
#include "workload/generators.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

using testing_support::random_csr;

using testing_support::workload_of;

Problem problem(Dtype dtype, int64_t k) { return Problem::of(dtype, {{"k", k}}); }

Config config_of(const std::string& schedule, int64_t block, int64_t lanes, int64_t vec, int64_t coarsen, int64_t chunks,
                 int32_t k) {
  return sddmm_space(k).from_json(
      {{"schedule", schedule}, {"block", block}, {"lanes", lanes}, {"vec", vec}, {"coarsen", coarsen}, {"chunks", chunks}});
}

template <typename T>
std::vector<T> contents(const DeviceBuffer& b) {
  std::vector<T> out(b.bytes.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), b.bytes.data(), b.bytes.size());
  return out;
}

const DeviceBuffer& buffer(const LaunchPlan& plan, const std::string& name) {
  const DeviceBuffer* b = plan.buffer(name);
  if (!b) throw std::runtime_error("no buffer " + name);
  return *b;
}

std::vector<std::string> arg_buffers(const LaunchStep& s) {
  std::vector<std::string> names;
  for (const KernelArg& a : s.args)
    if (!a.buffer.empty()) names.push_back(a.buffer);
  return names;
}

TEST(SddmmFamily, IsRegistered) {
  const KernelFamily* family = find_family("sddmm");
  ASSERT_NE(family, nullptr);
  EXPECT_EQ(family->name(), "sddmm");
  EXPECT_EQ(family_version(*family), family_version(SddmmFamily()));
}

TEST(SddmmFamily, TakesKFrom1To1024InF32OrF64) {
  const SddmmFamily family;
  EXPECT_EQ(make_problem(family, nullptr, Precision::uniform(Dtype::F32)).key(), R"({"k":32})");
  EXPECT_EQ(make_problem(family, {{"k", 1024}}, Precision::uniform(Dtype::F64)).key(), R"({"k":1024})");
  EXPECT_EQ(make_problem(family, {{"k", 1}}, Precision::uniform(Dtype::F64)).key(), R"({"k":1})");
  for (const nlohmann::json& bad : {nlohmann::json{{"k", 0}}, nlohmann::json{{"k", 1025}}, nlohmann::json{{"k", 2.5}},
                                    nlohmann::json{{"n", 4}}})
    EXPECT_THROW(make_problem(family, bad, Precision::uniform(Dtype::F32)), InputError) << bad.dump();
  EXPECT_THROW(make_problem(family, nullptr, Precision::uniform(Dtype::BF16)), InputError);
  EXPECT_THROW(make_problem(family, nullptr, {Dtype::F32, Dtype::F64, Dtype::F32}), InputError);
}

TEST(SddmmFamily, RefusesOperandsNoDeviceHoldsBeforeAllocatingThem) {
  const SddmmFamily family;
  // Only the shape is read: no row pointers are needed to refuse 2 x 20M rows of 1024 doubles.
  Workload huge;
  huge.matrix.rows = 20000000;
  huge.matrix.cols = 20000000;
  try {
    family.check_problem(huge, problem(Dtype::F64, 1024));
    FAIL() << "accepted 305 GiB of operands";
  } catch (const LimitError& e) {
    EXPECT_NE(std::string(e.what()).find("k = 1024"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("GiB"), std::string::npos) << e.what();
  }
  // 2 x 20M rows of 128 floats (19 GiB) fit a device; the host must hold them too.
  const double operands = 2.0 * 20000000 * 128 * 4;
  if (operands <= kHostOperandShare * physical_memory_bytes()) {
    EXPECT_NO_THROW(family.check_problem(huge, problem(Dtype::F32, 128)));
  } else {
    EXPECT_THROW(family.check_problem(huge, problem(Dtype::F32, 128)), LimitError);
  }
  EXPECT_NO_THROW(family.check_problem(workload_of(random_csr(50, 40, 5, 1)), problem(Dtype::F64, 1024)));
}

TEST(SddmmDenseInput, OperandsAreFixedDistinctAndOfTwentyFractionBits) {
  const std::vector<float> a = dense_operand(DenseOperand::A, 30, 7), b = dense_operand(DenseOperand::B, 30, 7);
  ASSERT_EQ(a.size(), 210u);
  EXPECT_EQ(a, dense_operand(DenseOperand::A, 30, 7));
  EXPECT_NE(a, b);  // else A·Bᵀ is symmetric and swapped operands would pass
  // A longer operand begins with the same values: a value depends on its index alone.
  const std::vector<float> longer = dense_operand(DenseOperand::A, 3000, 70);
  EXPECT_TRUE(std::equal(a.begin(), a.end(), longer.begin()));
  // In [-1, 1), 20 fraction bits (so that fp32 holds every value exactly), and hardly repeating.
  const size_t outside = std::count_if(longer.begin(), longer.end(), [](float v) {
    return v < -1.0f || v >= 1.0f || std::ldexp(v, 20) != std::floor(std::ldexp(v, 20));
  });
  EXPECT_EQ(outside, 0u);
  std::vector<float> sorted = longer;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_GT(std::unique(sorted.begin(), sorted.end()) - sorted.begin(), 190000);  // of 2^21 values
  for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
    const DeviceBuffer buf = dense_operand_buffer("b", DenseOperand::B, 30, 7, dtype);
    EXPECT_EQ(buf.size, 210 * dtype_size(dtype));
    if (dtype == Dtype::F64) {
      EXPECT_EQ(contents<double>(buf), std::vector<double>(b.begin(), b.end()));
    } else {
      EXPECT_EQ(contents<float>(buf), b);
    }
  }
}

// The reference against the definition: the whole dense product A·Bᵀ, read at S's pattern.
TEST(SddmmFamily, ReferenceIsTheDenseProductSampledAtThePattern) {
  const SddmmFamily family;
  const Workload w = workload_of(random_csr(40, 25, 9, 2));
  for (int64_t k : {1, 13}) {
    const std::vector<float> a = dense_operand(DenseOperand::A, 40, static_cast<int32_t>(k));
    const std::vector<float> b = dense_operand(DenseOperand::B, 25, static_cast<int32_t>(k));
    std::vector<double> product(40 * 25, 0.0);
    for (int64_t i = 0; i < 40; ++i)
      for (int64_t j = 0; j < 25; ++j)
        for (int64_t x = 0; x < k; ++x) product[i * 25 + j] += double{a[i * k + x]} * b[j * k + x];
    std::vector<double> sampled;
    for (int32_t r = 0; r < w.matrix.rows; ++r)
      for (int32_t i = w.matrix.row_ptr[r]; i < w.matrix.row_ptr[r + 1]; ++i)
        sampled.push_back(product[r * 25 + w.matrix.col_idx[i]]);
    const std::vector<double> got = family.reference(w, problem(Dtype::F32, k)).at("c");
    ASSERT_EQ(got.size(), sampled.size());
    for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], sampled[i], 1e-12) << i;
  }
}

TEST(SddmmFamily, SourcePerConfigurationIsSpecialisedAndDistinct) {
  const SddmmFamily family;
  std::set<std::pair<std::string, std::vector<std::string>>> kernels;
  const std::vector<Config> configs = family.space(problem(Dtype::F32, 64)).enumerate();
  for (const Config& config : configs) {
    const SddmmConfig c = SddmmConfig::from(config, 64);
    for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
      const KernelSource s = family.source(problem(dtype, 64), config);
      EXPECT_EQ(s.entries, std::vector<std::string>{"sddmm_" + c.schedule_name()});
      EXPECT_NE(s.code.find(s.entries[0] + "("), std::string::npos);
      std::set<std::string> options(s.options.begin(), s.options.end());
      EXPECT_TRUE(options.count(dtype == Dtype::F32 ? "-DKT_VALUE=float" : "-DKT_VALUE=double"));
      for (const std::string& o : {std::string("-DKT_K=64"), "-DKT_BLOCK=" + std::to_string(c.block),
                                   "-DKT_LANES=" + std::to_string(c.lanes), "-DKT_VEC=" + std::to_string(c.vec)})
        EXPECT_TRUE(options.count(o)) << o;
      EXPECT_EQ(options.count("-DKT_COARSEN=" + std::to_string(c.coarsen)), c.schedule == SddmmSchedule::Nonzero);
      EXPECT_EQ(options.count("-DKT_CHUNKS=" + std::to_string(c.chunks)), c.schedule != SddmmSchedule::Nonzero);
      EXPECT_EQ(options.count("-DKT_SLOTS=" + std::to_string(c.slots(dtype))), c.schedule == SddmmSchedule::Tiled);
      kernels.insert({s.code, s.options});
    }
  }
  EXPECT_EQ(kernels.size(), 2 * configs.size());
}

// A block per `per_block` nonzeros (nonzero) or rows (row, tiled): enough blocks, none to spare.
TEST(SddmmFamily, LaunchesCoverEveryNonzeroOrRowWithTheKernelsArguments) {
  const SddmmFamily family;
  for (const CsrF64& m : {random_csr(1000, 700, 20, 1), random_csr(1, 5, 5, 2), random_csr(0, 5, 0, 3),
                          generate_stencil_2d(45)}) {
    const Workload w = workload_of(m);
    const Problem p = problem(Dtype::F32, 32);
    for (const Config& config : family.space(p).enumerate()) {
      const SddmmConfig c = SddmmConfig::from(config, 32);
      const std::vector<LaunchStep> steps = family.launches(w, p, config);
      ASSERT_EQ(steps.size(), 1u);
      const LaunchStep& s = steps[0];
      EXPECT_EQ(s.entry, "sddmm_" + c.schedule_name());
      EXPECT_EQ(s.block.x, static_cast<uint32_t>(c.block));
      const bool nonzero = c.schedule == SddmmSchedule::Nonzero;
      const int64_t work = nonzero ? m.nnz() : m.rows;
      const int64_t per_block = nonzero ? int64_t{c.block} / c.lanes * c.coarsen : c.block / c.lanes;
      EXPECT_EQ(std::get<int32_t>(s.args[0].scalar), work);
      EXPECT_GE(int64_t{s.grid.x} * per_block, work);
      EXPECT_LT((int64_t{s.grid.x} - 1) * per_block, std::max<int64_t>(work, 1));
      std::vector<std::string> names = {"row_idx", "col_idx", "a", "b", "c"};
      if (c.schedule == SddmmSchedule::Row) names = {"row_ptr", "col_idx", "a", "b", "c"};
      if (c.schedule == SddmmSchedule::Tiled)
        names = {"row_ptr", "tile_ptr", "tile_cols", "segment_ends", "entry_cols", "entry_nz", "a", "b", "c"};
      EXPECT_EQ(arg_buffers(s), names);
    }
  }
}

TEST(SddmmFamily, PlansUploadTheStructureTheOperandsAndTheirFormat) {
  const SddmmFamily family;
  const Workload w = workload_of(random_csr(130, 90, 15, 6));
  const CsrF64& s = w.matrix;
  for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
    const Problem p = problem(dtype, 12);
    for (const std::string schedule : {"nonzero", "row", "tiled"}) {
      SCOPED_TRACE(schedule + " " + to_string(dtype));
      const Config config = config_of(schedule, 128, 8, 2, 1, 1, 12);
      const LaunchPlan plan = family.prepare(w, p, config);
      EXPECT_EQ(plan.family, "sddmm");
      EXPECT_EQ(plan.problem.key(), p.key());
      EXPECT_EQ(contents<int32_t>(buffer(plan, schedule == "tiled" ? "entry_nz" : "col_idx")).size(),
                static_cast<size_t>(s.nnz()));
      EXPECT_EQ(buffer(plan, "a").bytes.view(), dense_operand_buffer("a", DenseOperand::A, s.rows, 12, dtype).bytes.view());
      EXPECT_EQ(buffer(plan, "b").bytes.view(), dense_operand_buffer("b", DenseOperand::B, s.cols, 12, dtype).bytes.view());
      if (schedule == "nonzero") {
        const std::vector<int32_t> rows = contents<int32_t>(buffer(plan, "row_idx"));
        ASSERT_EQ(rows.size(), static_cast<size_t>(s.nnz()));
        for (int32_t r = 0; r < s.rows; ++r)
          for (int32_t i = s.row_ptr[r]; i < s.row_ptr[r + 1]; ++i) EXPECT_EQ(rows[static_cast<size_t>(i)], r);
        EXPECT_EQ(contents<int32_t>(buffer(plan, "col_idx")), s.col_idx);
        EXPECT_GE(plan.prepare_seconds, 0);
      } else {
        EXPECT_EQ(contents<int32_t>(buffer(plan, "row_ptr")), s.row_ptr);
      }
      if (schedule == "row") {
        EXPECT_EQ(contents<int32_t>(buffer(plan, "col_idx")), s.col_idx);
        EXPECT_EQ(plan.prepare_seconds, 0);  // S as it is
      }
      if (schedule == "tiled") {
        const SddmmTiling t = sddmm_tiling(s, 16, SddmmConfig::from(config, 12).slots(dtype));
        EXPECT_EQ(contents<int32_t>(buffer(plan, "tile_ptr")), t.tile_ptr);
        EXPECT_EQ(contents<int32_t>(buffer(plan, "tile_cols")), t.tile_cols);
        EXPECT_EQ(contents<int32_t>(buffer(plan, "segment_ends")), t.segment_ends);
        EXPECT_EQ(contents<int32_t>(buffer(plan, "entry_cols")), t.entry_cols);
        EXPECT_EQ(contents<int32_t>(buffer(plan, "entry_nz")), t.entry_nz);
        EXPECT_GT(plan.prepare_seconds, 0);
      }
      const DeviceBuffer& c = buffer(plan, "c");
      EXPECT_TRUE(c.bytes.empty());
      EXPECT_EQ(c.size, static_cast<size_t>(s.nnz()) * dtype_size(dtype));
      ASSERT_EQ(plan.outputs.size(), 1u);
      EXPECT_EQ(plan.outputs[0].buffer, "c");
      EXPECT_EQ(plan.outputs[0].elements, static_cast<size_t>(s.nnz()));
      EXPECT_EQ(plan.outputs[0].dtype, dtype);
      ASSERT_EQ(plan.steps.size(), 1u);
      EXPECT_EQ(arg_buffers(plan.steps[0]), arg_buffers(family.launches(w, p, config)[0]));
      EXPECT_NO_THROW(check_plan(plan));
    }
  }
}

// A tune's later configurations borrow S's structure and the operands: same bytes, no copy;
// the tiling is each configuration's own.
TEST(SddmmFamily, PrepareNextSharesWhatNoConfigurationChanges) {
  const SddmmFamily family;
  const Workload w = workload_of(generate_stencil_2d(20));
  const Problem p = problem(Dtype::F32, 32);
  const LaunchPlan first_nonzero = family.prepare(w, p, sddmm_first_config(SddmmSchedule::Nonzero, 32));
  const LaunchPlan first_row = family.prepare(w, p, sddmm_first_config(SddmmSchedule::Row, 32));
  const LaunchPlan first_tiled = family.prepare(w, p, sddmm_first_config(SddmmSchedule::Tiled, 32));
  for (const Config& config : family.space(p).enumerate()) {
    const LaunchPlan fresh = family.prepare(w, p, config);
    for (const LaunchPlan* first : {&first_nonzero, &first_row, &first_tiled}) {
      const LaunchPlan next = family.prepare_next(w, p, config, *first);
      ASSERT_EQ(next.buffers.size(), fresh.buffers.size());
      for (const DeviceBuffer& b : next.buffers) {
        EXPECT_EQ(b.bytes.view(), buffer(fresh, b.name).bytes.view()) << b.name;
        const DeviceBuffer* theirs = first->buffer(b.name);
        const bool shareable = b.name == "row_ptr" || b.name == "col_idx" || b.name == "row_idx" || b.name == "a" || b.name == "b";
        if (!theirs || b.bytes.empty()) continue;
        if (shareable) {
          EXPECT_EQ(b.bytes.data(), theirs->bytes.data()) << b.name << " was copied";
        } else {
          EXPECT_NE(b.bytes.data(), theirs->bytes.data()) << b.name;
        }
      }
      EXPECT_EQ(next.steps[0].grid.x, fresh.steps[0].grid.x);
    }
  }
}

TEST(SddmmFamily, VerifiesCWithKProductsAsEachElementsReductionLength) {
  const SddmmFamily family;
  const Workload w = workload_of(random_csr(300, 200, 20, 3));
  for (int64_t k : {2, 1024}) {
    const Problem p = problem(Dtype::F32, k);
    const LaunchPlan plan = family.prepare(w, p, sddmm_first_config(SddmmSchedule::Row, static_cast<int32_t>(k)));
    const std::vector<double> expected = family.reference(w, p).at("c");
    double largest = 0;
    for (double v : expected) largest = std::max(largest, std::fabs(v));
    std::vector<float> c(expected.begin(), expected.end());
    auto verdict = [&] {
      const std::string_view got(reinterpret_cast<const char*>(c.data()), c.size() * sizeof(float));
      return family.verify(p, plan.outputs[0], got, expected, {});
    };
    EXPECT_TRUE(verdict().ok) << verdict().message;
    // Off by 200 units of roundoff of the largest output: within K = 1024's tolerance, not K = 2's.
    c[17] = static_cast<float>(expected[17] + 200 * std::ldexp(largest, -24));
    EXPECT_EQ(verdict().ok, k == 1024) << verdict().message;
    c[17] = static_cast<float>(expected[17] + 0.5 * largest);
    const Verdict wrong = verdict();
    EXPECT_FALSE(wrong.ok);
    EXPECT_NE(wrong.message.find("element 17"), std::string::npos) << wrong.message;
  }
}

TEST(SddmmFamily, VendorCallNamesThePlansBuffersAndTheSizes) {
  const SddmmFamily family;
  const Workload w = workload_of(random_csr(120, 90, 10, 4));
  const Problem p = problem(Dtype::F64, 48);
  const std::vector<VendorCall> calls = family.vendor_calls(w, p);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].name, "cusparse_sddmm");
  EXPECT_EQ(calls[0].args["rows"], 120);
  EXPECT_EQ(calls[0].args["cols"], 90);
  EXPECT_EQ(calls[0].args["nnz"], w.matrix.nnz());
  EXPECT_EQ(calls[0].args["k"], 48);
  const LaunchPlan plan = family.vendor_plan(w, p);
  for (const char* role : {"row_ptr", "col_idx", "a", "b", "c"}) {
    const DeviceBuffer* b = plan.buffer(calls[0].args[role].get<std::string>());
    ASSERT_NE(b, nullptr) << role;
  }
  EXPECT_EQ(contents<int32_t>(buffer(plan, calls[0].args["row_ptr"])), w.matrix.row_ptr);
  EXPECT_EQ(contents<int32_t>(buffer(plan, calls[0].args["col_idx"])), w.matrix.col_idx);
  EXPECT_EQ(plan.outputs.at(0).buffer, calls[0].args["c"]);
}

TEST(SddmmFamily, FlopsAndCompulsoryBytes) {
  const SddmmFamily family;
  const Workload w = workload_of(random_csr(200, 150, 10, 10));
  const double nnz = static_cast<double>(w.matrix.nnz());
  EXPECT_DOUBLE_EQ(family.flops(w, problem(Dtype::F32, 64)), 2 * nnz * 64);
  // row_ptr (201 ints), col_idx, A (200 x 64), B (150 x 64), c.
  EXPECT_DOUBLE_EQ(family.min_bytes(w, problem(Dtype::F32, 64)), 201 * 4 + nnz * 4 + 350 * 64 * 4 + nnz * 4);
  EXPECT_DOUBLE_EQ(family.min_bytes(w, problem(Dtype::F64, 64)), 201 * 4 + nnz * 4 + 350 * 64 * 8 + nnz * 8);
}

TEST(SddmmFamily, RefusesAnInvalidConfiguration) {
  const SddmmFamily family;
  const Workload w = workload_of(random_csr(10, 10, 3, 9));
  const Problem p = problem(Dtype::F32, 30);
  Config bad = sddmm_first_config(SddmmSchedule::Nonzero, 30);
  bad["vec"] = 4;  // 30 is no multiple of 4
  EXPECT_THROW(family.source(p, bad), InputError);
  EXPECT_THROW(family.launches(w, p, bad), InputError);
  EXPECT_THROW(family.prepare(w, p, bad), InputError);
  EXPECT_THROW(family.estimate(w, p, bad), InputError);
}

// The walk starts at the smallest kernel of each schedule and only grows: every step doubles
// one parameter (lanes while halving chunks where it can), and stays in the space or says nothing.
TEST(SddmmFamily, CanonicalMovesStayInTheSpace) {
  const SddmmFamily family;
  for (int64_t k : {1, 36, 1024}) {
    const Problem p = problem(Dtype::F32, k);
    const ParameterSpace space = family.space(p);
    const CanonicalMoves moves = family.canonical_moves(p);
    ASSERT_EQ(moves.starts.size(), 3u);
    std::set<int64_t> schedules;
    for (const Config& start : moves.starts) {
      EXPECT_TRUE(space.valid(start));
      schedules.insert(start.at("schedule"));
    }
    EXPECT_EQ(schedules.size(), 3u);
    size_t steps = 0;
    for (const Config& from : space.enumerate()) {
      for (const CanonicalDirection& d : moves.directions) {
        const std::optional<Config> to = d.step(from);
        if (!to) continue;
        ++steps;
        EXPECT_TRUE(space.valid(*to)) << d.name;
        EXPECT_EQ(to->at("schedule"), from.at("schedule"));
        const double work = static_cast<double>(to->at("block") * to->at("lanes") * to->at("vec") * to->at("coarsen") * to->at("chunks"));
        EXPECT_GE(work, static_cast<double>(from.at("block") * from.at("lanes") * from.at("vec") * from.at("coarsen") * from.at("chunks"))) << d.name;
        EXPECT_NE(*to, from);
      }
    }
    EXPECT_GT(steps, 0u);
  }
}

TEST(SddmmFamily, DescribesItselfAndItsVersion) {
  const SddmmFamily family;
  EXPECT_EQ(family.workload_kind(), WorkloadKind::SparseMatrix);
  EXPECT_NE(family.description().find("spy(C)"), std::string::npos);
  EXPECT_EQ(family.templates().size(), 5u);
  for (std::string_view t : family.templates()) EXPECT_FALSE(t.empty());
  EXPECT_EQ(family_version(family).size(), 64u);
}

}  // namespace
}  // namespace ktune
