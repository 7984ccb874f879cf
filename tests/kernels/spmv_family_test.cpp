#include "kernels/spmv/spmv_family.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>

#include "kernels/input_vector.h"
#include "kernels/spmv/spmv_adaptive_partition.h"
#include "kernels/spmv/spmv_atomic_rows.h"
#include "kernels/spmv/spmv_config.h"
#include "kernels/spmv/spmv_hot_columns.h"
#include "random_csr.h"
#include "spmv_refusal.h"
#include "workload/generators.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

using testing_support::random_csr;
using testing_support::spmv_refused;

using testing_support::workload_of;

bool has_option(const KernelSource& s, const std::string& option) {
  return std::find(s.options.begin(), s.options.end(), option) != s.options.end();
}

template <typename T>
std::vector<T> contents(const DeviceBuffer& b) {
  std::vector<T> out(b.bytes.size() / sizeof(T));
  std::memcpy(out.data(), b.bytes.data(), b.bytes.size());
  return out;
}

const DeviceBuffer& buffer(const LaunchPlan& plan, const std::string& name) {
  for (const auto& b : plan.buffers) {
    if (b.name == name) return b;
  }
  throw std::runtime_error("no buffer " + name);
}

TEST(FamilyRegistry, FindsSpmvByName) {
  const KernelFamily* family = find_family("spmv");
  ASSERT_NE(family, nullptr);
  EXPECT_EQ(family->name(), "spmv");
  EXPECT_EQ(find_family("no-such-family"), nullptr);
  bool listed = false;
  for (const auto& f : all_families()) listed = listed || f.get() == family;
  EXPECT_TRUE(listed);
}

TEST(SpmvFamily, SourcePerConfigurationIsSpecialisedAndDistinct) {
  const SpmvFamily family;
  std::set<std::pair<std::string, std::vector<std::string>>> kernels;
  for (const Config& config : family.space({}).enumerate()) {
    const SpmvConfig c = SpmvConfig::from(config);
    for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
      const KernelSource s = family.source(Problem::of(dtype), config);
      const bool hot = c.schedule == SpmvSchedule::AdaptiveHot;
      const std::string entry = c.is_adaptive() ? "spmv_adaptive" : "spmv_" + c.schedule_name();
      std::vector<std::string> entries = {entry};
      if (hot) entries.push_back("spmv_gather_hot_x");
      if (c.schedule == SpmvSchedule::Merge || c.is_adaptive()) entries.push_back("spmv_zero_rows");
      EXPECT_EQ(s.entries, entries);
      for (const std::string& e : s.entries) EXPECT_NE(s.code.find(e + "("), std::string::npos);
      EXPECT_EQ(has_option(s, "-DKT_HOT_X"), hot);
      EXPECT_TRUE(has_option(s, dtype == Dtype::F32 ? "-DKT_VALUE=float" : "-DKT_VALUE=double"));
      EXPECT_TRUE(has_option(s, "-DKT_BLOCK=" + std::to_string(c.block)));
      EXPECT_EQ(has_option(s, "-DKT_LANES=" + std::to_string(c.lanes)),
                c.schedule == SpmvSchedule::Subwarp);
      EXPECT_EQ(has_option(s, "-DKT_ITEMS=" + std::to_string(c.items_per_thread)),
                c.schedule == SpmvSchedule::Merge || c.is_adaptive());
      kernels.insert({s.code, s.options});
    }
  }
  EXPECT_EQ(kernels.size(), 2 * family.space({}).enumerate().size());
}

TEST(SpmvFamily, LaunchesCoverEveryRowAndNonzero) {
  const SpmvFamily family;
  int sell_launches = 0;
  for (const CsrF64& m : {random_csr(1000, 700, 20, 1), random_csr(1, 5, 5, 2), random_csr(0, 5, 0, 3),
                          random_csr(4097, 64, 1, 4), generate_stencil_2d(45)}) {
    const Workload w = workload_of(m);
    for (const Config& config : family.space({}).enumerate()) {
      const SpmvConfig c = SpmvConfig::from(config);
      if (spmv_refused(config, m)) {
        EXPECT_THROW(family.launches(w, {}, config), InputError);
        continue;
      }
      sell_launches += c.is_sell();
      const std::vector<LaunchStep> steps = family.launches(w, {}, config);
      const bool hot = c.schedule == SpmvSchedule::AdaptiveHot;
      const bool zeroes = steps.front().entry == "spmv_zero_rows";  // PlansThatAddIntoRowsZeroThoseRowsFirst
      ASSERT_EQ(steps.size(), 1u + hot + zeroes);
      if (hot) {  // the gather of x_hot before the matrix kernel: a thread for each hot column
        const LaunchStep& gather = steps[steps.size() - 2];
        EXPECT_EQ(gather.entry, "spmv_gather_hot_x");
        const int64_t count = hot_column_count(m, kHotColumns);
        EXPECT_EQ(std::get<int32_t>(gather.args[0].scalar), count);
        EXPECT_GE(int64_t{gather.grid.x} * gather.block.x, count);
        EXPECT_LT(int64_t{gather.grid.x - 1} * gather.block.x, std::max<int64_t>(count, 1));
      }
      const LaunchStep& s = steps.back();
      EXPECT_EQ(s.entry, c.is_adaptive() ? "spmv_adaptive" : "spmv_" + c.schedule_name());
      EXPECT_EQ(s.block.x, static_cast<uint32_t>(c.block));
      EXPECT_LE(s.block.x, 1024u);
      EXPECT_EQ(s.block.x % 32, 0u);
      EXPECT_EQ(s.grid.y * s.grid.z * s.block.y * s.block.z, 1u);
      EXPECT_GE(s.grid.x, 1u);
      if (c.is_adaptive()) {  // its partition's tests cover the rows
        EXPECT_EQ(s.grid.x, adaptive_partition(m, c.tile_items()).blocks());
        continue;
      }
      // Work one block covers, and the work there is: enough blocks, and none to spare.
      const bool merge = c.schedule == SpmvSchedule::Merge;
      const int64_t per_block = merge ? int64_t{c.block} * c.items_per_thread : c.block / c.lanes;
      const int64_t work = merge ? m.rows + m.nnz() : m.rows;
      EXPECT_GE(int64_t{s.grid.x} * per_block, work) << family.space({}).canonical(config);
      if (work > 0) {
        EXPECT_LT((int64_t{s.grid.x} - 1) * per_block, work);
      }
    }
  }
  EXPECT_EQ(sell_launches, 3 * 10);  // the one-row, empty and stencil matrices take SELL-32, both indices
}

TEST(SpmvFamily, LaunchArgumentsMatchTheKernelSignatures) {
  const SpmvFamily family;
  const Workload w = workload_of(generate_stencil_2d(18));  // every schedule takes it
  for (const Config& config : family.space({}).enumerate()) {
    const LaunchStep s = family.launches(w, {}, config).back();
    const SpmvSchedule schedule = SpmvConfig::from(config).schedule;
    const bool merge = schedule == SpmvSchedule::Merge, hot = schedule == SpmvSchedule::AdaptiveHot;
    ASSERT_EQ(s.args.size(), merge || hot ? 7u : 6u);
    if (SpmvConfig::from(config).is_adaptive()) {
      EXPECT_EQ(s.args[0].buffer, "row_blocks");
    } else {
      EXPECT_EQ(std::get<int32_t>(s.args[0].scalar), w.matrix.rows);
    }
    if (merge) {
      EXPECT_EQ(std::get<int32_t>(s.args[1].scalar), w.matrix.nnz());
    }
    const size_t first_buffer = merge ? 2 : 1;
    std::vector<std::string> names = {"row_ptr", "col_idx", "values", "x", "y"};
    if (schedule == SpmvSchedule::Sell) names = {"slice_ptr", "sell_col_idx", "sell_values", "x", "y"};
    if (schedule == SpmvSchedule::Sell16) names = {"slice_ptr", "sell_offsets", "sell_values", "x", "y"};
    if (hot) names = {"row_ptr", "hot_col_idx", "values", "x", "x_hot", "y"};
    for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(s.args[first_buffer + i].buffer, names[i]);
  }
}

TEST(SpmvFamily, PrepareUploadsTheMatrixAndX) {
  const SpmvFamily family;
  const Workload w = workload_of(random_csr(120, 90, 15, 6));
  const Config row = spmv_space().from_json({{"schedule", "row"}, {"block", 128}});
  for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
    const LaunchPlan plan = family.prepare(w, Problem::of(dtype), row);
    EXPECT_EQ(contents<int32_t>(buffer(plan, "row_ptr")), w.matrix.row_ptr);
    EXPECT_EQ(contents<int32_t>(buffer(plan, "col_idx")), w.matrix.col_idx);
    const std::vector<double> x = deterministic_input_vector(90);
    if (dtype == Dtype::F64) {
      EXPECT_EQ(contents<double>(buffer(plan, "values")), w.matrix.values);
      EXPECT_EQ(contents<double>(buffer(plan, "x")), x);
    } else {
      const std::vector<float> values = contents<float>(buffer(plan, "values"));
      ASSERT_EQ(values.size(), w.matrix.values.size());
      for (size_t i = 0; i < values.size(); ++i)
        EXPECT_EQ(values[i], static_cast<float>(w.matrix.values[i]));
      EXPECT_EQ(contents<float>(buffer(plan, "x")), std::vector<float>(x.begin(), x.end()));
    }
    const DeviceBuffer& y = buffer(plan, "y");
    EXPECT_TRUE(y.bytes.empty());
    EXPECT_EQ(y.size, 120 * dtype_size(dtype));
    EXPECT_EQ(plan.outputs.at(0).buffer, "y");
    EXPECT_EQ(plan.outputs.at(0).elements, 120u);
    EXPECT_EQ(plan.steps.size(), 1u);
  }
}

// Merge adds a row split between tiles into y, adaptive a row long enough to be cut in slices:
// such a plan begins by zeroing exactly those rows (spmv_zero_rows over "atomic_rows"), the
// launch list of the answer too; no other plan has that launch. y itself is never zeroed.
TEST(SpmvFamily, PlansThatAddIntoRowsZeroThoseRowsFirst) {
  const SpmvFamily family;
  const int32_t longest_unsplit = static_cast<int32_t>(kAdaptiveSplitTiles * 4096);
  const Workload short_rows = workload_of(generate_stencil_2d(4));  // 16 rows, 64 nonzeros
  const Workload long_row =
      workload_of(testing_support::csr_with_row_lengths({2, longest_unsplit + 1, 2}, 20000));
  int zeroing = 0;
  for (const Workload* w : {&short_rows, &long_row}) {
    for (const Config& config : family.space({}).enumerate()) {
      if (spmv_refused(config, w->matrix)) continue;
      const SpmvConfig c = SpmvConfig::from(config);
      SCOPED_TRACE(spmv_space().canonical(config));
      std::vector<int32_t> rows;
      if (c.schedule == SpmvSchedule::Merge) rows = merge_atomic_rows(w->matrix, c.tile_items());
      if (c.is_adaptive()) rows = adaptive_atomic_rows(adaptive_partition(w->matrix, c.tile_items()));
      const LaunchPlan plan = family.prepare(*w, Problem::of(Dtype::F32), config);
      const std::vector<LaunchStep> launches = family.launches(*w, {}, config);
      ASSERT_EQ(launches.size(), plan.steps.size());
      const bool has_zero_step = plan.steps.front().entry == "spmv_zero_rows";
      EXPECT_EQ(has_zero_step, !rows.empty());
      EXPECT_EQ(launches.front().entry, plan.steps.front().entry);
      if (rows.empty()) {
        EXPECT_FALSE(std::any_of(plan.buffers.begin(), plan.buffers.end(),
                                 [](const DeviceBuffer& b) { return b.name == "atomic_rows"; }));
        continue;
      }
      ++zeroing;
      EXPECT_EQ(contents<int32_t>(buffer(plan, "atomic_rows")), rows);
      const LaunchStep& zero = plan.steps.front();
      EXPECT_EQ(std::get<int32_t>(zero.args[0].scalar), static_cast<int32_t>(rows.size()));
      EXPECT_GE(int64_t{zero.grid.x} * zero.block.x, static_cast<int64_t>(rows.size()));
      EXPECT_EQ(zero.args[1].buffer, "atomic_rows");
      EXPECT_EQ(zero.args[2].buffer, "y");
      if (c.is_adaptive()) {
        EXPECT_EQ(rows, std::vector<int32_t>{1});  // the long row, once however many slices
      }
    }
  }
  EXPECT_GT(zeroing, 56 + 30);  // every merge on the long row, and every adaptive there
}

// The rows merge_atomic_rows names are the rows in progress where a tile begins, the first tile
// too: walked item by item along the merge path (a row's nonzeros, then its end).
TEST(SpmvAtomicRows, MergeNamesTheRowInProgressAtEveryTileStart) {
  const CsrF64 a = testing_support::csr_with_row_lengths({0, 5, 0, 0, 9, 1, 0, 30, 2, 0}, 40);
  for (int64_t tile : {1, 3, 4, 7, 16, 64}) {
    std::vector<int32_t> want;
    int64_t item = 0;
    for (int32_t r = 0; r < a.rows; ++r) {
      // Row r's items: its nonzeros, then its end. A tile that begins at one of them begins
      // inside row r (at its first item too: the row is then in progress, as the kernel sees).
      const int64_t first = item, last = item + (a.row_ptr[r + 1] - a.row_ptr[r]);
      for (int64_t start = ((first + tile - 1) / tile) * tile; start <= last; start += tile)
        if (want.empty() || want.back() != r) want.push_back(r);
      item = last + 1;
    }
    EXPECT_EQ(merge_atomic_rows(a, tile), want) << "tile " << tile;
  }
}

TEST(SpmvFamily, AdaptivePrepareUploadsItsPartition) {
  const SpmvFamily family;
  const Workload w = workload_of(random_csr(2000, 500, 30, 12));
  const Config config = spmv_space().from_json(
      {{"schedule", "adaptive"}, {"block", 256}, {"items_per_thread", 2}});
  const LaunchPlan plan = family.prepare(w, Problem::of(Dtype::F64), config);
  const AdaptivePartition partition = adaptive_partition(w.matrix, 512);
  EXPECT_EQ(contents<int32_t>(buffer(plan, "row_blocks")), partition.row_blocks);
  EXPECT_EQ(contents<int32_t>(buffer(plan, "row_ptr")), w.matrix.row_ptr);
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_EQ(plan.steps[0].grid.x, partition.blocks());
  EXPECT_EQ(plan.steps[0].entry, "spmv_adaptive");
  const LaunchStep launched = family.launches(w, {}, config).at(0);
  EXPECT_EQ(launched.grid.x, plan.steps[0].grid.x);
  EXPECT_EQ(launched.args.size(), plan.steps[0].args.size());
  EXPECT_GE(plan.prepare_seconds, 0.0);
  EXPECT_EQ(plan.outputs.at(0).buffer, "y");
  EXPECT_EQ(plan.outputs.at(0).elements, 2000u);
}

// adaptive_hot: the hot columns' list and the renamed matrix go up; x_hot is the gather's
// output and the matrix kernel's input, and the gather runs first.
TEST(SpmvFamily, AdaptiveHotPrepareUploadsTheHotColumnsAndGathersThemFirst) {
  const SpmvFamily family;
  const Workload w = workload_of(random_csr(3000, 800, 30, 13));
  const Config config = spmv_space().from_json(
      {{"schedule", "adaptive_hot"}, {"block", 256}, {"items_per_thread", 2}});
  for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
    const LaunchPlan plan = family.prepare(w, Problem::of(dtype), config);
    const HotColumns hot = hot_columns(w.matrix, kHotColumns);
    ASSERT_FALSE(hot.columns.empty());
    EXPECT_EQ(contents<int32_t>(buffer(plan, "hot_cols")), hot.columns);
    EXPECT_EQ(contents<int32_t>(buffer(plan, "hot_col_idx")), hot.col_idx);
    EXPECT_EQ(contents<int32_t>(buffer(plan, "row_blocks")), adaptive_partition(w.matrix, 512).row_blocks);
    const DeviceBuffer& x_hot = buffer(plan, "x_hot");
    EXPECT_TRUE(x_hot.bytes.empty());
    EXPECT_EQ(x_hot.size, hot.columns.size() * dtype_size(dtype));
    ASSERT_EQ(plan.steps.size(), 2u);
    EXPECT_EQ(plan.steps[0].entry, "spmv_gather_hot_x");
    EXPECT_EQ(plan.steps[0].args.back().buffer, "x_hot");
    EXPECT_EQ(plan.steps[1].entry, "spmv_adaptive");
    EXPECT_EQ(plan.steps[1].args[5].buffer, "x_hot");
  }
}

TEST(SpmvFamily, RefusesAnInvalidConfiguration) {
  const SpmvFamily family;
  const Workload w = workload_of(random_csr(10, 10, 3, 9));
  Config bad = spmv_space().from_json({{"schedule", "row"}, {"block", 128}});
  bad["lanes"] = 8;
  EXPECT_THROW(family.source(Problem::of(Dtype::F32), bad), InputError);
  EXPECT_THROW(family.launches(w, {}, bad), InputError);
  EXPECT_THROW(family.prepare(w, Problem::of(Dtype::F32), bad), InputError);
  EXPECT_THROW(family.estimate(w, Problem::of(Dtype::F32), bad), InputError);
}

TEST(SpmvFamily, FlopsAndCompulsoryBytes) {
  const SpmvFamily family;
  const Workload w = workload_of(random_csr(200, 150, 10, 10));
  const double nnz = static_cast<double>(w.matrix.nnz());
  EXPECT_DOUBLE_EQ(family.flops(w, {}), 2 * nnz);
  // row_ptr (201 ints), col_idx, values, x (150), y (200).
  EXPECT_DOUBLE_EQ(family.min_bytes(w, Problem::of(Dtype::F32)), 201 * 4 + nnz * 8 + 150 * 4 + 200 * 4);
  EXPECT_DOUBLE_EQ(family.min_bytes(w, Problem::of(Dtype::F64)), 201 * 4 + nnz * 12 + 150 * 8 + 200 * 8);
}

TEST(SpmvFamily, DescribesItself) {
  const SpmvFamily family;
  EXPECT_EQ(family.workload_kind(), WorkloadKind::SparseMatrix);
  EXPECT_NE(family.description().find("merge"), std::string::npos);
  EXPECT_EQ(family.space({}).describe()["configurations"], family.space({}).enumerate().size());
}

TEST(SpmvFamily, VerifiesYWithEachRowsLengthAsItsTolerance) {
  const SpmvFamily family;
  const Workload w = workload_of(random_csr(300, 200, 40, 3));
  const LaunchPlan plan = family.prepare(w, Problem::of(Dtype::F32), family.space({}).first_valid());
  ASSERT_EQ(plan.family, "spmv");
  ASSERT_EQ(plan.outputs.size(), 1u);
  const std::vector<double> expected = family.reference(w, {}).at("y");
  std::vector<float> y(expected.begin(), expected.end());
  const std::string_view got(reinterpret_cast<const char*>(y.data()), y.size() * sizeof(float));
  CheckData data;
  for (const auto& [name, bytes] : plan.check_data) data[name] = bytes.view();
  EXPECT_TRUE(family.verify(plan.problem, plan.outputs[0], got, expected, data).ok);
  y[17] += 1.0f;
  const Verdict wrong = family.verify(plan.problem, plan.outputs[0], got, expected, data);
  EXPECT_FALSE(wrong.ok);
  EXPECT_NE(wrong.message.find("element 17"), std::string::npos) << wrong.message;
  EXPECT_NE(family.verify(plan.problem, plan.outputs[0], got, expected, {}).message.find("row lengths"),
            std::string::npos);
}

TEST(SpmvFamily, VendorCallsNameTheCsrPlansBuffers) {
  const SpmvFamily family;
  const Workload w = workload_of(random_csr(120, 90, 10, 4));
  const std::vector<VendorCall> calls = family.vendor_calls(w, Problem::of(Dtype::F64));
  ASSERT_EQ(calls.size(), 2u);
  const LaunchPlan plan = family.vendor_plan(w, Problem::of(Dtype::F64));
  for (const VendorCall& call : calls) {
    EXPECT_EQ(call.name, "cusparse_spmv");
    EXPECT_EQ(call.args["nnz"], w.matrix.nnz());
    for (const char* role : {"row_ptr", "col_idx", "values", "x", "y"})
      EXPECT_NE(plan.buffer(call.args[role].get<std::string>()), nullptr) << role;
  }
  EXPECT_NE(calls[0].label, calls[1].label);
}

TEST(SpmvFamily, TakesNoProblemParametersAndF32OrF64) {
  const SpmvFamily family;
  EXPECT_EQ(make_problem(family, nullptr, Precision::uniform(Dtype::F64)).key(), "{}");
  EXPECT_THROW(make_problem(family, {{"k", 3}}, Precision::uniform(Dtype::F32)), InputError);
  EXPECT_THROW(make_problem(family, nullptr, Precision::uniform(Dtype::BF16)), InputError);
  EXPECT_THROW(make_problem(family, nullptr, {Dtype::F32, Dtype::F64, Dtype::F32}), InputError);
}

TEST(SpmvFamily, ItsVersionHashesItsOwnTemplates) {
  const SpmvFamily family;
  EXPECT_EQ(family_version(family).size(), 64u);
  EXPECT_EQ(family_version(family), family_version(*find_family("spmv")));
  for (std::string_view t : family.templates()) EXPECT_FALSE(t.empty());
}

}  // namespace
}  // namespace ktune

namespace ktune {
namespace {

// A tune's later configurations borrow the first plan's inputs: same bytes, same hash, no copy;
// everything that depends on the configuration is their own.
TEST(SpmvFamily, PrepareNextSharesTheInputsAndKeepsItsOwnLaunches) {
  const SpmvFamily family;
  Workload w;
  w.matrix = generate_stencil_2d(23);
  const std::vector<Config> configs = family.space({}).enumerate();
  auto first_of = [&](const char* schedule) {
    return family.prepare(w, Problem::of(Dtype::F32), spmv_space().from_json({{"schedule", schedule}, {"block", 64}}));
  };
  const LaunchPlan first_csr = first_of("row"), first_sell = first_of("sell"), first_sell16 = first_of("sell16");
  const LaunchPlan first_hot = family.prepare(w, Problem::of(Dtype::F32), spmv_space().from_json({{"schedule", "adaptive_hot"}, {"block", 128}, {"items_per_thread", 1}}));
  for (const Config& config : configs) {
    const SpmvSchedule schedule = SpmvConfig::from(config).schedule;
    const bool sell = SpmvConfig::from(config).is_sell();
    const LaunchPlan& first = schedule == SpmvSchedule::Sell           ? first_sell
                              : schedule == SpmvSchedule::Sell16      ? first_sell16
                              : schedule == SpmvSchedule::AdaptiveHot ? first_hot
                                                                      : first_csr;
    const LaunchPlan fresh = family.prepare(w, Problem::of(Dtype::F32), config);
    const LaunchPlan next = family.prepare_next(w, Problem::of(Dtype::F32), config, first);
    ASSERT_EQ(next.buffers.size(), fresh.buffers.size());
    for (size_t i = 0; i < fresh.buffers.size(); ++i) {
      const DeviceBuffer& a = fresh.buffers[i];
      const DeviceBuffer& b = next.buffers[i];
      EXPECT_EQ(a.name, b.name);
      EXPECT_EQ(a.size, b.size);
      EXPECT_EQ(a.bytes.view(), b.bytes.view()) << a.name;
      const bool shared_input = a.name != "y" && a.name != "row_blocks" && a.name != "x_hot" && a.name != "atomic_rows";
      if (shared_input) {
        EXPECT_EQ(b.bytes.data(), first.buffers[i].bytes.data()) << a.name << " was copied";
      }
    }
    ASSERT_EQ(next.steps.size(), fresh.steps.size());
    for (size_t i = 0; i < fresh.steps.size(); ++i) {
      EXPECT_EQ(next.steps[i].entry, fresh.steps[i].entry);
      EXPECT_EQ(next.steps[i].grid.x, fresh.steps[i].grid.x);
    }
    // After a plan of the other format the inputs are built afresh, and are the same.
    const LaunchPlan crossed = family.prepare_next(w, Problem::of(Dtype::F32), config, sell ? first_csr : first_sell);
    ASSERT_EQ(crossed.buffers.size(), fresh.buffers.size());
    for (size_t i = 0; i < fresh.buffers.size(); ++i)
      EXPECT_EQ(crossed.buffers[i].bytes.view(), fresh.buffers[i].bytes.view()) << fresh.buffers[i].name;
  }
}

}  // namespace
}  // namespace ktune
