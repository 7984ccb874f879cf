#include "kernels/spmm/spmm_family.h"

#include <chrono>
#include <cstring>

#include "kernel_templates.h"
#include "kernels/device_buffers.h"
#include "kernels/input_vector.h"
#include "kernels/host_memory_limit.h"
#include "kernels/spmm/spmm_aspt_tiling.h"
#include "kernels/spmm/spmm_block_weights.h"
#include "kernels/spmm/spmm_checked_rows.h"
#include "kernels/spmm/spmm_estimate.h"
#include "kernels/spmm/spmm_operands.h"
#include "kernels/spmm/spmm_reference.h"
#include "kernels/spmm/spmm_row_groups.h"
#include "workload/input_error.h"

namespace ktune {

namespace {

// spmm_zero_rows.cu's block size (KT_ZERO_BLOCK there).
constexpr int64_t kZeroRowsBlock = 256;

// The matrix as the kernels read it, and B: the same for every configuration of a tune. aspt
// reads its own reordered nonzeros instead of col_idx and values.
const std::vector<std::string> kMatrixInputs = {"row_ptr", "col_idx", "values", "b"};
const std::vector<std::string> kAsptInputs = {"row_ptr", "aspt_cols", "aspt_values", "b"};

// The configuration-independent inputs a schedule reads.
std::vector<std::string> shared_input_names(SpmmSchedule schedule) {
  if (schedule == SpmmSchedule::Aspt) return {"row_ptr", "b"};
  return kMatrixInputs;
}

DeviceBuffer shared_input(const std::string& name, const CsrF64& a, int32_t k, Dtype dtype) {
  if (name == "row_ptr") return index_buffer(name, a.row_ptr);
  if (name == "col_idx") return index_buffer(name, a.col_idx);
  if (name == "values") return value_buffer(name, a.values, dtype);
  return dense_input_buffer(name, a.cols, k, dtype);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// What a configuration's launches need of the matrix besides CSR: the rows it adds into
// atomically (zeroed first) and heavy_light's split of the rows.
struct RowWork {
  std::vector<int32_t> zeroed;
  HeavyLightRows split;
};

RowWork row_work(const CsrF64& a, const SpmmConfig& c) {
  RowWork work;
  if (c.schedule == SpmmSchedule::NonzeroSplit) work.zeroed = segment_start_rows(a, c.items);
  if (c.schedule == SpmmSchedule::HeavyLight) {
    work.split = heavy_light_rows(a, c.threshold);
    work.zeroed = work.split.heavy;
  }
  return work;
}

// A matrix kernel's launch: `groups` groups along x, K in tiles along y; its leading scalars and
// lists, then the matrix, B and C.
LaunchStep matrix_launch(std::string entry, const SpmmConfig& c, int32_t k, int64_t groups,
                         std::vector<KernelArg> leading, const std::vector<std::string>& inputs = kMatrixInputs) {
  LaunchStep step;
  step.entry = std::move(entry);
  step.grid.x = static_cast<uint32_t>(c.blocks_for(groups));
  step.grid.y = static_cast<uint32_t>(c.k_tiles(k));
  step.block.x = static_cast<uint32_t>(c.block);
  step.args = std::move(leading);
  for (const std::string& buffer : inputs) step.args.push_back(KernelArg::of_buffer(buffer));
  step.args.push_back(KernelArg::of_buffer("c"));
  return step;
}

// C[atomic_rows[i]][:] = 0 for its `count` rows, before any kernel adds into them.
LaunchStep zero_rows_launch(int64_t count, int32_t k) {
  LaunchStep step;
  step.entry = "spmm_zero_rows";
  step.grid.x = static_cast<uint32_t>((count * k + kZeroRowsBlock - 1) / kZeroRowsBlock);
  step.block.x = static_cast<uint32_t>(kZeroRowsBlock);
  step.args = {KernelArg::of_scalar(static_cast<int32_t>(count)), KernelArg::of_buffer("atomic_rows"),
               KernelArg::of_buffer("c")};
  return step;
}

// The zeroing of the rows added into (when there are any), then the matrix kernels; heavy_light
// launches its light rows always (a grid of one block when there are none) and its chunks when
// some row is heavy.
std::vector<LaunchStep> spmm_launches(const CsrF64& a, const SpmmConfig& c, int32_t k, const RowWork& work) {
  std::vector<LaunchStep> steps;
  if (!work.zeroed.empty()) steps.push_back(zero_rows_launch(static_cast<int64_t>(work.zeroed.size()), k));
  switch (c.schedule) {
    case SpmmSchedule::RowSplit:
      steps.push_back(matrix_launch("spmm_row_split", c, k, a.rows, {KernelArg::of_scalar(a.rows)}));
      break;
    case SpmmSchedule::NonzeroSplit: {
      const int64_t segments = (a.rows + a.nnz() + c.items - 1) / c.items;
      steps.push_back(matrix_launch("spmm_nonzero_split", c, k, segments,
                                    {KernelArg::of_scalar(a.rows), KernelArg::of_scalar(static_cast<int32_t>(a.nnz())),
                                     KernelArg::of_scalar(c.items)}));
      break;
    }
    case SpmmSchedule::HeavyLight: {
      const int64_t light = static_cast<int64_t>(work.split.light.size());
      steps.push_back(
          matrix_launch("spmm_light_rows", c, k, light,
                        {KernelArg::of_scalar(static_cast<int32_t>(light)), KernelArg::of_buffer("light_rows")}));
      const int64_t chunks = work.split.chunk_count();
      if (chunks > 0) {
        steps.push_back(matrix_launch("spmm_heavy_chunks", c, k, chunks,
                                      {KernelArg::of_scalar(static_cast<int32_t>(chunks)),
                                       KernelArg::of_scalar(c.threshold), KernelArg::of_buffer("heavy_chunks")}));
      }
      break;
    }
    case SpmmSchedule::Aspt:  // a block a panel: a group a row
      steps.push_back(matrix_launch(
          "spmm_aspt", c, k, a.rows,
          {KernelArg::of_scalar(a.rows), KernelArg::of_buffer("tile_ptr"), KernelArg::of_buffer("tile_col_ptr"),
           KernelArg::of_buffer("tile_cols"), KernelArg::of_buffer("segment_ends")},
          kAsptInputs));
      break;
  }
  return steps;
}

// Each row's length as int32 bytes: the verifier's reduction lengths.
// What the verifier reads besides the reference: every row's length (the reduction length of
// its elements) and, when C is checked on a sample of rows, those rows.
std::map<std::string, HostBytes> check_inputs(const CsrF64& a, int32_t k) {
  std::vector<int32_t> lengths(static_cast<size_t>(a.rows));
  for (int32_t r = 0; r < a.rows; ++r) lengths[static_cast<size_t>(r)] = a.row_length(r);
  std::map<std::string, HostBytes> data{{"row_lengths", input_buffer("row_lengths", lengths).bytes}};
  const std::vector<int32_t> rows = spmm_checked_rows(a, k);
  if (!rows.empty()) data["checked_rows"] = input_buffer("checked_rows", rows).bytes;
  return data;
}

std::vector<int32_t> int32s_of(std::string_view bytes) {
  std::vector<int32_t> values(bytes.size() / sizeof(int32_t));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(int32_t));
  return values;
}

}  // namespace

std::string SpmmFamily::description() const {
  return "Sparse matrix times dense matrix C = A·B on CSR, B and C row-major with K columns "
         "(problem.k): a group of lanes per row splitting K with vector loads, a warp per row at 32 "
         "lanes (row_split); merge-path segments of rows + nonzeros per group, rows split between "
         "segments added atomically (nonzero_split); or RS-SpMM's split of light rows, row-split, "
         "from heavy rows cut into chunks of nonzeros added atomically (heavy_light); or ASpT's "
         "adaptive tiling, each panel's dense columns of B staged in shared memory and its rows' "
         "nonzeros reordered tile by tile (aspt). K is covered in tiles along the grid's y";
}

ProblemSchema SpmmFamily::problem_schema() const {
  return {{ProblemField::integer("k", 1, kSpmmMaxK, kSpmmDefaultK, "columns of B and C")}};
}

void SpmmFamily::check_problem(const Workload& w, const Problem& p) const {
  const double bytes = spmm_device_bytes(w.matrix, spmm_k(p), p.precision.input);
  if (bytes > kSpmmMaxDeviceBytes) {
    throw LimitError("spmm with k = " + std::to_string(spmm_k(p)) + " in " + to_string(p.precision) + " needs " +
                     std::to_string(static_cast<int64_t>(bytes / (1 << 20))) +
                     " MiB of device memory for A, B and C, over the " +
                     std::to_string(static_cast<int64_t>(kSpmmMaxDeviceBytes / (1 << 20))) +
                     " MiB a device holds; ask for a smaller k");
  }
  const double b_bytes = static_cast<double>(w.matrix.cols) * spmm_k(p) * static_cast<double>(dtype_size(p.precision.input));
  check_host_operands("spmm with k = " + std::to_string(spmm_k(p)) + " in " + to_string(p.precision) + " (B)", b_bytes,
                      "ask for a smaller k");
}

ParameterSpace SpmmFamily::space(const Problem& p) const { return spmm_space(spmm_k(p)); }

KernelSource SpmmFamily::source(const Problem& p, const Config& config) const {
  const int32_t k = spmm_k(p);
  const SpmmConfig c = SpmmConfig::from(config, k);
  KernelSource s;
  s.code = std::string(templates::k_spmm_common_cuh);
  switch (c.schedule) {
    case SpmmSchedule::RowSplit:
      s.code += templates::k_spmm_row_split_cu;
      s.entries = {"spmm_row_split"};
      break;
    case SpmmSchedule::NonzeroSplit:
      s.code += templates::k_spmm_nonzero_split_cu;
      s.entries = {"spmm_nonzero_split"};
      break;
    case SpmmSchedule::HeavyLight:
      s.code += std::string(templates::k_spmm_row_split_cu) + std::string(templates::k_spmm_heavy_chunks_cu);
      s.entries = {"spmm_light_rows", "spmm_heavy_chunks"};
      s.options.push_back("-DKT_ROW_LIST");
      break;
    case SpmmSchedule::Aspt:
      s.code += templates::k_spmm_aspt_cu;
      s.entries = {"spmm_aspt"};
      s.options.push_back("-DKT_SLOTS=" + std::to_string(c.slots(p.precision.input)));
      break;
  }
  if (c.adds_into_c()) {
    s.code += templates::k_spmm_zero_rows_cu;
    s.entries.push_back("spmm_zero_rows");
  }
  const std::vector<std::string> shape = {
      std::string("-DKT_VALUE=") + (p.precision.input == Dtype::F32 ? "float" : "double"),
      "-DKT_K=" + std::to_string(k),
      "-DKT_BLOCK=" + std::to_string(c.block),
      "-DKT_LANES=" + std::to_string(c.lanes),
      "-DKT_VEC=" + std::to_string(c.vec),
      "-DKT_K_TILE=" + std::to_string(c.k_tile)};
  s.options.insert(s.options.begin(), shape.begin(), shape.end());
  return s;
}

std::vector<LaunchStep> SpmmFamily::launches(const Workload& w, const Problem& p, const Config& config) const {
  const int32_t k = spmm_k(p);
  const SpmmConfig c = SpmmConfig::from(config, k);
  return spmm_launches(w.matrix, c, k, row_work(w.matrix, c));
}

LaunchPlan SpmmFamily::plan_with(const Workload& w, const Problem& p, const Config& config,
                                 std::vector<DeviceBuffer> inputs, std::map<std::string, HostBytes> check) const {
  const int32_t k = spmm_k(p);
  const SpmmConfig c = SpmmConfig::from(config, k);
  const CsrF64& a = w.matrix;
  const Dtype dtype = p.precision.input;
  LaunchPlan plan;
  plan.family = name();
  plan.problem = p;
  plan.buffers = std::move(inputs);
  const size_t elements = static_cast<size_t>(a.rows) * static_cast<size_t>(k);
  plan.buffers.push_back(output_buffer("c", elements, dtype));
  plan.outputs = {{"c", elements, dtype}};
  if (auto rows = check.find("checked_rows"); rows != check.end()) {
    const std::vector<int32_t> checked = int32s_of(rows->second.view());
    plan.outputs[0].sampled = checked.size() * static_cast<size_t>(k);
    plan.outputs[0].read_ranges = spmm_row_ranges(checked, k);
  }
  plan.check_data = std::move(check);
  // The host's preprocessing, paid again whenever the matrix changes: the rows to zero,
  // heavy_light's classification of the rows, aspt's tiling.
  const auto start = std::chrono::steady_clock::now();
  const RowWork work = row_work(a, c);
  if (!work.zeroed.empty()) plan.buffers.push_back(index_buffer("atomic_rows", work.zeroed));
  if (c.schedule == SpmmSchedule::HeavyLight) {
    plan.buffers.push_back(index_buffer("light_rows", work.split.light));
    if (work.split.chunk_count() > 0) plan.buffers.push_back(index_buffer("heavy_chunks", work.split.chunks));
  }
  if (c.schedule == SpmmSchedule::Aspt) {
    const AsptTiling tiling = aspt_tiling(a, c.groups_per_block(), c.slots(dtype));
    plan.buffers.push_back(index_buffer("tile_ptr", tiling.tile_ptr));
    plan.buffers.push_back(index_buffer("tile_col_ptr", tiling.tile_col_ptr));
    plan.buffers.push_back(index_buffer("tile_cols", tiling.tile_cols));
    plan.buffers.push_back(index_buffer("segment_ends", tiling.segment_ends));
    plan.buffers.push_back(index_buffer("aspt_cols", tiling.cols));
    plan.buffers.push_back(value_buffer("aspt_values", tiling.values, dtype));
  }
  if (c.schedule != SpmmSchedule::RowSplit) plan.prepare_seconds = seconds_since(start);
  plan.steps = spmm_launches(a, c, k, work);
  return plan;
}

LaunchPlan SpmmFamily::prepare(const Workload& w, const Problem& p, const Config& config) const {
  const int32_t k = spmm_k(p);
  std::vector<DeviceBuffer> inputs;
  for (const std::string& name : shared_input_names(SpmmConfig::from(config, k).schedule))
    inputs.push_back(shared_input(name, w.matrix, k, p.precision.input));
  return plan_with(w, p, config, std::move(inputs), check_inputs(w.matrix, k));
}

LaunchPlan SpmmFamily::prepare_next(const Workload& w, const Problem& p, const Config& config,
                                    const LaunchPlan& previous) const {
  const int32_t k = spmm_k(p);
  std::vector<DeviceBuffer> inputs;
  for (const std::string& name : shared_input_names(SpmmConfig::from(config, k).schedule)) {
    const DeviceBuffer* shared = previous.buffer(name);
    // Shares the bytes and their hash; an input the previous plan lacked is built.
    inputs.push_back(shared && !shared->bytes.empty() ? *shared : shared_input(name, w.matrix, k, p.precision.input));
  }
  return plan_with(w, p, config, std::move(inputs),
                   previous.check_data.count("row_lengths") ? previous.check_data : check_inputs(w.matrix, k));
}

Reference SpmmFamily::reference(const Workload& w, const Problem& p) const {
  const int32_t k = spmm_k(p);
  const CsrF64& a = w.matrix;
  const std::vector<int32_t> rows = spmm_checked_rows(a, k);
  if (!rows.empty()) return {{"c", spmm_reference_rows(a, k, rows)}};
  return {{"c", spmm_reference(a, deterministic_input_matrix(static_cast<size_t>(a.cols), static_cast<size_t>(k)), k)}};
}

Verdict SpmmFamily::verify(const Problem& p, const PlanOutput& output, std::string_view got,
                           const std::vector<double>& expected, const CheckData& data) const {
  const size_t k = static_cast<size_t>(spmm_k(p));
  auto lengths = data.find("row_lengths");
  auto rows = data.find("checked_rows");
  // Element i of the reference (and of `got`) lies in row i / k of C, or of the checked rows.
  const std::vector<int32_t> checked = rows == data.end() ? std::vector<int32_t>{} : int32s_of(rows->second);
  const size_t reference_rows = output.sampled > 0 ? checked.size() : output.elements / std::max<size_t>(1, k);
  if (lengths == data.end() || reference_rows * k != expected.size() ||
      (output.sampled > 0 && checked.size() * k != output.sampled)) {
    Verdict v;
    v.message = "the row lengths (or checked rows) to check C against are missing";
    return v;
  }
  const std::vector<int32_t> length_of_row = int32s_of(lengths->second);
  return check_reduction_output(got, output.dtype, expected, [&](size_t i) {
    const size_t row = checked.empty() ? i / k : static_cast<size_t>(checked[i / k]);
    return row < length_of_row.size() ? static_cast<double>(length_of_row[row]) : 0.0;
  });
}

std::vector<VendorCall> SpmmFamily::vendor_calls(const Workload& w, const Problem& p) const {
  const CsrF64& a = w.matrix;
  const nlohmann::json args = {
      {"rows", a.rows},       {"cols", a.cols},     {"nnz", a.nnz()}, {"k", spmm_k(p)}, {"row_ptr", "row_ptr"},
      {"col_idx", "col_idx"}, {"values", "values"}, {"b", "b"},       {"c", "c"}};
  std::vector<VendorCall> calls;
  for (const char* alg : {"alg_default", "csr_alg1", "csr_alg2", "csr_alg3"}) {
    nlohmann::json with_alg = args;
    with_alg["alg"] = alg;
    calls.push_back({"cusparse_spmm", std::string("cusparse-") + alg, with_alg});
  }
  return calls;
}

LaunchPlan SpmmFamily::vendor_plan(const Workload& w, const Problem& p) const {
  // cuSPARSE reads CSR as it is, B and C: the first row_split configuration's plan holds them.
  return prepare(w, p, space(p).first_valid());
}

WorkEstimate SpmmFamily::estimate(const Workload& w, const Problem& p, const Config& config) const {
  const int32_t k = spmm_k(p);
  return estimate_spmm(w, SpmmConfig::from(config, k), k, p.precision.input);
}

double SpmmFamily::flops(const Workload& w, const Problem& p) const {
  return 2.0 * static_cast<double>(w.matrix.nnz()) * spmm_k(p);
}

double SpmmFamily::min_bytes(const Workload& w, const Problem& p) const {
  return spmm_device_bytes(w.matrix, spmm_k(p), p.precision.input);
}

std::optional<std::vector<double>> SpmmFamily::block_weights(const LaunchPlan& plan, const LaunchStep& step) const {
  return spmm_block_weights(plan, step);
}

std::vector<std::string_view> SpmmFamily::templates() const {
  return {templates::k_spmm_common_cuh,      templates::k_spmm_row_split_cu, templates::k_spmm_nonzero_split_cu,
          templates::k_spmm_heavy_chunks_cu, templates::k_spmm_zero_rows_cu, templates::k_spmm_aspt_cu};
}

std::unique_ptr<KernelFamily> make_spmm_family() { return std::make_unique<SpmmFamily>(); }

}  // namespace ktune
