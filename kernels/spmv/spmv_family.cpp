#include "kernels/spmv/spmv_family.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "kernel_templates.h"
#include "kernels/device_buffers.h"
#include "kernels/input_vector.h"
#include "kernels/spmv/spmv_adaptive_partition.h"
#include "kernels/spmv/spmv_atomic_rows.h"
#include "kernels/spmv/spmv_block_weights.h"
#include "kernels/spmv/spmv_config.h"
#include "kernels/spmv/spmv_estimate.h"
#include "kernels/spmv/spmv_hot_columns.h"
#include "kernels/spmv/spmv_reference.h"
#include "kernels/spmv/spmv_sell_format.h"
#include "workload/input_error.h"

namespace ktune {

namespace {

// spmv_hot_x.cu's block size (KT_HOT_GATHER_BLOCK there).
constexpr int64_t kHotGatherBlock = 256;
// spmv_zero_rows.cu's (KT_ZERO_BLOCK there).
constexpr int64_t kZeroRowsBlock = 256;

// Merge always adds a row split between tiles into y; adaptive adds a long row's slices.
bool adds_into_y(const SpmvConfig& c) { return c.schedule == SpmvSchedule::Merge || c.is_adaptive(); }

// The rows `c` adds into (spmv_atomic_rows.h); `partition` is the adaptive schedules'.
std::vector<int32_t> atomic_rows_of(const CsrF64& a, const SpmvConfig& c, const AdaptivePartition* partition) {
  if (partition) return adaptive_atomic_rows(*partition);
  if (c.schedule == SpmvSchedule::Merge) return merge_atomic_rows(a, c.tile_items());
  return {};
}

std::string schedule_template(SpmvSchedule schedule) {
  switch (schedule) {
    case SpmvSchedule::Row:
      return std::string(templates::k_spmv_row_cu);
    case SpmvSchedule::Subwarp:
      return std::string(templates::k_spmv_subwarp_cu);
    case SpmvSchedule::Merge:
      return std::string(templates::k_spmv_merge_cu);
    case SpmvSchedule::Adaptive:
      return std::string(templates::k_spmv_adaptive_cu);
    case SpmvSchedule::AdaptiveHot:
      return std::string(templates::k_spmv_hot_x_cu) + std::string(templates::k_spmv_adaptive_cu);
    case SpmvSchedule::Sell:
    case SpmvSchedule::Sell16:
      return std::string(templates::k_spmv_sell_cu);
  }
  return {};
}

// The device inputs a schedule reads: CSR as it is, its SELL-32 form, or CSR with its hot
// columns renamed and their list; x is the last of the matrix kernel's.
std::vector<std::string> input_names(SpmvSchedule schedule) {
  if (schedule == SpmvSchedule::Sell) return {"slice_ptr", "sell_col_idx", "sell_values", "x"};
  if (schedule == SpmvSchedule::Sell16) return {"slice_ptr", "sell_offsets", "sell_values", "x"};
  if (schedule == SpmvSchedule::AdaptiveHot) return {"row_ptr", "hot_col_idx", "values", "x", "hot_cols"};
  return {"row_ptr", "col_idx", "values", "x"};
}

// The matrix kernel of every schedule, on a grid of `blocks`.
LaunchStep spmv_launch(const CsrF64& a, const SpmvConfig& c, int64_t blocks) {
  LaunchStep step;
  step.entry = c.is_adaptive() ? "spmv_adaptive" : "spmv_" + c.schedule_name();
  step.grid.x = static_cast<uint32_t>(blocks);
  step.block.x = static_cast<uint32_t>(c.block);
  if (c.is_adaptive()) {
    step.args.push_back(KernelArg::of_buffer("row_blocks"));
  } else {
    step.args.push_back(KernelArg::of_scalar(a.rows));
  }
  if (c.schedule == SpmvSchedule::Merge) {
    step.args.push_back(KernelArg::of_scalar(static_cast<int32_t>(a.nnz())));
  }
  for (const std::string& buffer : input_names(c.schedule)) {
    if (buffer == "hot_cols") continue;  // the gather's, not this kernel's
    step.args.push_back(KernelArg::of_buffer(buffer));
  }
  if (c.schedule == SpmvSchedule::AdaptiveHot) step.args.push_back(KernelArg::of_buffer("x_hot"));
  step.args.push_back(KernelArg::of_buffer("y"));
  return step;
}

// adaptive_hot's first launch: x_hot[s] = x[hot_cols[s]] for its `hot` slots.
LaunchStep hot_gather_launch(int64_t hot) {
  LaunchStep step;
  step.entry = "spmv_gather_hot_x";
  step.grid.x = static_cast<uint32_t>(std::max<int64_t>(1, (hot + kHotGatherBlock - 1) / kHotGatherBlock));
  step.block.x = static_cast<uint32_t>(kHotGatherBlock);
  step.args = {KernelArg::of_scalar(static_cast<int32_t>(hot)), KernelArg::of_buffer("hot_cols"),
               KernelArg::of_buffer("x"), KernelArg::of_buffer("x_hot")};
  return step;
}

// The first launch of a schedule that adds into y: y[atomic_rows[i]] = 0 for its `count` rows.
LaunchStep zero_rows_launch(int64_t count) {
  LaunchStep step;
  step.entry = "spmv_zero_rows";
  step.grid.x = static_cast<uint32_t>((count + kZeroRowsBlock - 1) / kZeroRowsBlock);
  step.block.x = static_cast<uint32_t>(kZeroRowsBlock);
  step.args = {KernelArg::of_scalar(static_cast<int32_t>(count)), KernelArg::of_buffer("atomic_rows"),
               KernelArg::of_buffer("y")};
  return step;
}

// The launches of a configuration: the zeroing of the rows it adds into (when there are any),
// the hot gather (adaptive_hot), then the matrix kernel.
std::vector<LaunchStep> spmv_launches(const CsrF64& a, const SpmvConfig& c, int64_t blocks, int64_t hot,
                                      int64_t atomic_rows) {
  std::vector<LaunchStep> steps;
  if (atomic_rows > 0) steps.push_back(zero_rows_launch(atomic_rows));
  if (c.schedule == SpmvSchedule::AdaptiveHot) steps.push_back(hot_gather_launch(hot));
  steps.push_back(spmv_launch(a, c, blocks));
  return steps;
}

// Each row's length as int32 bytes: the verifier's reduction lengths.
HostBytes row_length_bytes(const CsrF64& a) {
  std::vector<int32_t> lengths(static_cast<size_t>(a.rows));
  for (int32_t r = 0; r < a.rows; ++r) lengths[static_cast<size_t>(r)] = a.row_length(r);
  return input_buffer("row_lengths", lengths).bytes;
}

// The inputs of input_names(schedule), built from the workload.
std::vector<DeviceBuffer> format_inputs(const CsrF64& a, const SpmvConfig& c, Dtype dtype) {
  std::vector<DeviceBuffer> inputs;
  if (c.schedule == SpmvSchedule::AdaptiveHot) {
    if (const std::string why = hot_columns_refusal(a); !why.empty()) throw InputError(why);
    const HotColumns hot = hot_columns(a, kHotColumns);
    inputs.push_back(index_buffer("row_ptr", a.row_ptr));
    inputs.push_back(index_buffer("hot_col_idx", hot.col_idx));
    inputs.push_back(value_buffer("values", a.values, dtype));
    inputs.push_back(value_buffer("x", deterministic_input_vector(a.cols), dtype));
    inputs.push_back(index_buffer("hot_cols", hot.columns));
    return inputs;
  }
  if (c.is_sell()) {
    const SellMatrix sell = sell_matrix(a);
    inputs.push_back(index_buffer("slice_ptr", sell.slice_ptr));
    if (c.sell_index() == SellIndex::Offset16) {
      inputs.push_back(input_buffer("sell_offsets", sell_offsets(sell)));
    } else {
      inputs.push_back(index_buffer("sell_col_idx", sell.col_idx));
    }
    inputs.push_back(value_buffer("sell_values", sell.values, dtype));
  } else {
    inputs.push_back(index_buffer("row_ptr", a.row_ptr));
    inputs.push_back(index_buffer("col_idx", a.col_idx));
    inputs.push_back(value_buffer("values", a.values, dtype));
  }
  inputs.push_back(value_buffer("x", deterministic_input_vector(a.cols), dtype));
  return inputs;
}

}  // namespace

std::string spmv_refusal(const CsrF64& a, const SpmvConfig& c) {
  if (c.is_sell()) return sell_refusal(a, sell_shape(a), c.sell_index());
  if (c.schedule == SpmvSchedule::AdaptiveHot) return hot_columns_refusal(a);
  return "";
}

std::string SpmvFamily::description() const {
  return "Sparse matrix-vector product y = A·x on CSR: one thread per row (row), a sub-warp of "
         "lanes per row (subwarp), merge-path load balancing over rows + nonzeros (merge), or "
         "row blocks of about one tile of nonzeros each, cut on the host (adaptive), the same after "
         "a gather of the x of the most used columns into one dense array (adaptive_hot); or on "
         "the matrix's SELL-32 form, a warp per slice of 32 rows, with 32-bit columns (sell) or "
         "16-bit offsets from the row (sell16)";
}

ParameterSpace SpmvFamily::space(const Problem&) const { return spmv_space(); }

KernelSource SpmvFamily::source(const Problem& p, const Config& config) const {
  const SpmvConfig c = SpmvConfig::from(config);
  const Dtype dtype = p.precision.input;
  KernelSource s;
  s.code = std::string(templates::k_spmv_common_cuh) + schedule_template(c.schedule);
  // The matrix kernel first; the launches before it (zeroing what it adds into, adaptive_hot's
  // gather of x_hot) after.
  s.entries = {c.is_adaptive() ? "spmv_adaptive" : "spmv_" + c.schedule_name()};
  if (c.schedule == SpmvSchedule::AdaptiveHot) s.entries.push_back("spmv_gather_hot_x");
  if (adds_into_y(c)) {
    s.code += templates::k_spmv_zero_rows_cu;
    s.entries.push_back("spmv_zero_rows");
  }
  s.options = {std::string("-DKT_VALUE=") + (dtype == Dtype::F32 ? "float" : "double"),
               "-DKT_BLOCK=" + std::to_string(c.block)};
  if (c.schedule == SpmvSchedule::Subwarp)
    s.options.push_back("-DKT_LANES=" + std::to_string(c.lanes));
  if (c.schedule == SpmvSchedule::Sell16) s.options.push_back("-DKT_SELL_OFFSETS");
  if (c.schedule == SpmvSchedule::Merge || c.is_adaptive()) {
    s.options.push_back("-DKT_ITEMS=" + std::to_string(c.items_per_thread));
  }
  if (c.schedule == SpmvSchedule::AdaptiveHot) s.options.push_back("-DKT_HOT_X");
  return s;
}

std::vector<LaunchStep> SpmvFamily::launches(const Workload& w, const Problem&, const Config& config) const {
  const SpmvConfig c = SpmvConfig::from(config);
  const CsrF64& a = w.matrix;
  // A refused form has no launch; the tuner reports why before anything runs.
  if (const std::string why = spmv_refusal(a, c); !why.empty()) throw InputError(why);
  const int64_t hot = c.schedule == SpmvSchedule::AdaptiveHot ? hot_column_count(a, kHotColumns) : 0;
  if (c.is_adaptive()) {
    const AdaptivePartition partition = adaptive_partition(a, c.tile_items());
    return spmv_launches(a, c, partition.blocks(), hot, static_cast<int64_t>(atomic_rows_of(a, c, &partition).size()));
  }
  return spmv_launches(a, c, c.blocks(a.rows, a.nnz()), hot, static_cast<int64_t>(atomic_rows_of(a, c, nullptr).size()));
}

// The host work of a plan besides its inputs: the adaptive schedules' partition, and
// adaptive_hot's x_hot. (Sell's conversion and the hot columns' renaming happen with the
// inputs, in format_inputs, and are shared with them.)
LaunchPlan SpmvFamily::plan_with(const Workload& w, const Problem& p, const Config& config,
                                 std::vector<DeviceBuffer> inputs, HostBytes row_lengths) const {
  const SpmvConfig c = SpmvConfig::from(config);
  const CsrF64& a = w.matrix;
  const Dtype dtype = p.precision.input;
  LaunchPlan plan;
  plan.family = name();
  plan.problem = p;
  plan.buffers = std::move(inputs);
  plan.buffers.push_back(output_buffer("y", a.rows, dtype));
  plan.outputs = {{"y", static_cast<size_t>(a.rows), dtype}};
  plan.check_data["row_lengths"] = std::move(row_lengths);
  if (c.is_adaptive()) {
    const auto start = std::chrono::steady_clock::now();
    const AdaptivePartition partition = adaptive_partition(a, c.tile_items());
    plan.prepare_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    plan.buffers.push_back(index_buffer("row_blocks", partition.row_blocks));
    int64_t hot = 0;
    if (c.schedule == SpmvSchedule::AdaptiveHot) {
      const auto hot_cols = std::find_if(plan.buffers.begin(), plan.buffers.end(),
                                         [](const DeviceBuffer& b) { return b.name == "hot_cols"; });
      hot = static_cast<int64_t>(hot_cols->size / sizeof(int32_t));
      plan.buffers.push_back(output_buffer("x_hot", static_cast<size_t>(std::max<int64_t>(hot, 1)), dtype));
    }
    // Slices of a split row meet only through atomicAdd into y.
    const std::vector<int32_t> atomic_rows = atomic_rows_of(a, c, &partition);
    if (!atomic_rows.empty()) plan.buffers.push_back(index_buffer("atomic_rows", atomic_rows));
    plan.steps = spmv_launches(a, c, partition.blocks(), hot, static_cast<int64_t>(atomic_rows.size()));
  } else {
    const std::vector<int32_t> atomic_rows = atomic_rows_of(a, c, nullptr);
    if (!atomic_rows.empty()) plan.buffers.push_back(index_buffer("atomic_rows", atomic_rows));
    plan.steps = spmv_launches(a, c, c.blocks(a.rows, a.nnz()), 0, static_cast<int64_t>(atomic_rows.size()));
  }
  return plan;
}

LaunchPlan SpmvFamily::prepare(const Workload& w, const Problem& p, const Config& config) const {
  const SpmvConfig c = SpmvConfig::from(config);
  const auto start = std::chrono::steady_clock::now();
  std::vector<DeviceBuffer> inputs = format_inputs(w.matrix, c, p.precision.input);
  const double convert_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  LaunchPlan plan = plan_with(w, p, config, std::move(inputs), row_length_bytes(w.matrix));
  // Sell's and adaptive_hot's forms are built with their inputs (the rest have CSR as it is).
  if (c.is_sell() || c.schedule == SpmvSchedule::AdaptiveHot) plan.prepare_seconds += convert_seconds;
  return plan;
}

LaunchPlan SpmvFamily::prepare_next(const Workload& w, const Problem& p, const Config& config,
                                    const LaunchPlan& previous) const {
  std::vector<DeviceBuffer> inputs;
  for (const std::string& buffer : input_names(SpmvConfig::from(config).schedule)) {
    const DeviceBuffer* shared = previous.buffer(buffer);
    if (!shared || shared->bytes.empty()) return prepare(w, p, config);
    inputs.push_back(*shared);  // shares the bytes and their hash
  }
  auto lengths = previous.check_data.find("row_lengths");
  if (lengths == previous.check_data.end()) return prepare(w, p, config);
  LaunchPlan plan = plan_with(w, p, config, std::move(inputs), lengths->second);
  // The form it shares (SELL-32, or the renamed hot columns) cost the previous plan its
  // conversion; that plan's own partition, if any, is about as long as this one's.
  const SpmvConfig c = SpmvConfig::from(config);
  if (c.is_sell() || c.schedule == SpmvSchedule::AdaptiveHot) plan.prepare_seconds = previous.prepare_seconds;
  return plan;
}

Reference SpmvFamily::reference(const Workload& w, const Problem&) const {
  return {{"y", spmv_reference(w.matrix, deterministic_input_vector(w.matrix.cols))}};
}

Verdict SpmvFamily::verify(const Problem&, const PlanOutput& output, std::string_view got,
                           const std::vector<double>& expected, const CheckData& data) const {
  auto lengths = data.find("row_lengths");
  if (lengths == data.end() || lengths->second.size() != expected.size() * sizeof(int32_t)) {
    Verdict v;
    v.message = "the row lengths to check y against are missing";
    return v;
  }
  const std::string_view bytes = lengths->second;
  return check_reduction_output(got, output.dtype, expected, [bytes](size_t i) {
    int32_t length;
    std::memcpy(&length, bytes.data() + i * sizeof length, sizeof length);
    return static_cast<double>(length);
  });
}

std::vector<VendorCall> SpmvFamily::vendor_calls(const Workload& w, const Problem& p) const {
  const CsrF64& a = w.matrix;
  const nlohmann::json args = {{"rows", a.rows},       {"cols", a.cols},       {"nnz", a.nnz()},
                               {"row_ptr", "row_ptr"}, {"col_idx", "col_idx"}, {"values", "values"},
                               {"x", "x"},             {"y", "y"}};
  std::vector<VendorCall> calls;
  for (const char* alg : {"csr_alg1", "csr_alg2"}) {
    nlohmann::json with_alg = args;
    with_alg["alg"] = alg;
    calls.push_back({"cusparse_spmv", std::string("cusparse-") + alg, with_alg});
  }
  return calls;
}

LaunchPlan SpmvFamily::vendor_plan(const Workload& w, const Problem& p) const {
  // cuSPARSE reads CSR as it is: the plan of the row schedule holds it.
  return prepare(w, p, spmv_space().enumerate().front());
}

WorkEstimate SpmvFamily::estimate(const Workload& w, const Problem& p, const Config& config) const {
  return estimate_spmv(w.matrix, SpmvConfig::from(config), p.precision.input);
}

double SpmvFamily::flops(const Workload& w, const Problem&) const { return 2.0 * static_cast<double>(w.matrix.nnz()); }

double SpmvFamily::min_bytes(const Workload& w, const Problem& p) const {
  return spmv_min_bytes(w.matrix, p.precision.input);
}

std::optional<std::vector<double>> SpmvFamily::block_weights(const LaunchPlan& plan, const LaunchStep& step) const {
  return spmv_block_weights(plan, step);
}

std::optional<std::vector<double>> SpmvFamily::block_spans(const LaunchPlan& plan, const LaunchStep& step) const {
  return spmv_block_spans(plan, step);
}

std::vector<std::string_view> SpmvFamily::templates() const {
  return {templates::k_spmv_common_cuh, templates::k_spmv_row_cu,       templates::k_spmv_subwarp_cu,
          templates::k_spmv_merge_cu,   templates::k_spmv_adaptive_cu,  templates::k_spmv_hot_x_cu,
          templates::k_spmv_sell_cu,    templates::k_spmv_zero_rows_cu};
}

std::unique_ptr<KernelFamily> make_spmv_family() { return std::make_unique<SpmvFamily>(); }

}  // namespace ktune
