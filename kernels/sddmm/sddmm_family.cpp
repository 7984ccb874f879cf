#include "kernels/sddmm/sddmm_family.h"

#include <chrono>
#include <cstdio>

#include "kernel_templates.h"
#include "kernels/device_buffers.h"
#include "kernels/host_memory_limit.h"
#include "kernels/sddmm/sddmm_block_weights.h"
#include "kernels/sddmm/sddmm_dense_input.h"
#include "kernels/sddmm/sddmm_estimate.h"
#include "kernels/sddmm/sddmm_reference.h"
#include "kernels/sddmm/sddmm_tiles.h"
#include "workload/input_error.h"

namespace ktune {

namespace {

// What an 80 GB H100 holds beside the measurement's own buffers (the L2 flush, cuSPARSE's
// workspace); larger problems are refused before anything is allocated for them.
constexpr double kMaxDeviceBytes = 64.0 * (1 << 30);

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The buffers a schedule's kernel reads after its leading scalar, in argument order; c follows.
std::vector<std::string> input_names(SddmmSchedule schedule) {
  switch (schedule) {
    case SddmmSchedule::Nonzero:
      return {"row_idx", "col_idx", "a", "b"};
    case SddmmSchedule::Row:
      return {"row_ptr", "col_idx", "a", "b"};
    case SddmmSchedule::Tiled:
      return {"row_ptr", "tile_ptr", "tile_cols", "segment_ends", "entry_cols", "entry_nz", "a", "b"};
  }
  return {};
}

LaunchStep sddmm_launch(const CsrF64& s, const SddmmConfig& c) {
  LaunchStep step;
  step.entry = "sddmm_" + c.schedule_name();
  step.grid.x = static_cast<uint32_t>(c.blocks(s.rows, s.nnz()));
  step.block.x = static_cast<uint32_t>(c.block);
  const bool nonzero = c.schedule == SddmmSchedule::Nonzero;
  step.args.push_back(KernelArg::of_scalar(nonzero ? static_cast<int32_t>(s.nnz()) : s.rows));
  for (const std::string& buffer : input_names(c.schedule)) step.args.push_back(KernelArg::of_buffer(buffer));
  step.args.push_back(KernelArg::of_buffer("c"));
  return step;
}

// The row of each nonzero (COO rows): the nonzero schedule's preprocessing.
std::vector<int32_t> row_of_each_nonzero(const CsrF64& s) {
  std::vector<int32_t> rows(static_cast<size_t>(s.nnz()));
  for (int32_t r = 0; r < s.rows; ++r)
    for (int32_t i = s.row_ptr[r]; i < s.row_ptr[r + 1]; ++i) rows[static_cast<size_t>(i)] = r;
  return rows;
}

// The device bytes of the largest plan: S's structure with a row per nonzero, A, B and C.
double device_bytes(const CsrF64& s, int32_t k, Dtype dtype) {
  const double value = static_cast<double>(dtype_size(dtype)), nnz = static_cast<double>(s.nnz());
  return (s.rows + 1.0) * 4 + nnz * 8 + (static_cast<double>(s.rows) + s.cols) * k * value + nnz * value;
}

// The input `name` of `previous`, when there is one (its bytes and their hash shared).
const DeviceBuffer* shared_input(const LaunchPlan* previous, const std::string& name) {
  if (!previous) return nullptr;
  const DeviceBuffer* b = previous->buffer(name);
  return b && !b->bytes.empty() ? b : nullptr;
}

// Inputs that depend on the workload and problem only, shared by the plans of a tune: S's
// structure (with the nonzero schedule's row of each nonzero), A and B.
bool configuration_independent(const std::string& buffer) {
  return buffer == "row_ptr" || buffer == "col_idx" || buffer == "row_idx" || buffer == "a" || buffer == "b";
}

DeviceBuffer common_input(const std::string& name, const CsrF64& s, int32_t k, Dtype dtype) {
  if (name == "row_ptr") return index_buffer(name, s.row_ptr);
  if (name == "row_idx") return index_buffer(name, row_of_each_nonzero(s));
  if (name == "col_idx") return index_buffer(name, s.col_idx);
  if (name == "a") return dense_operand_buffer(name, DenseOperand::A, s.rows, k, dtype);
  return dense_operand_buffer(name, DenseOperand::B, s.cols, k, dtype);
}

// The tiled schedule's reordered S (sddmm_tiles.h), by buffer name.
std::vector<DeviceBuffer> tiling_inputs(const CsrF64& s, const SddmmConfig& c, Dtype dtype) {
  const SddmmTiling t = sddmm_tiling(s, c.groups_per_block(), c.slots(dtype));
  return {index_buffer("tile_ptr", t.tile_ptr), index_buffer("tile_cols", t.tile_cols),
          index_buffer("segment_ends", t.segment_ends), index_buffer("entry_cols", t.entry_cols),
          index_buffer("entry_nz", t.entry_nz)};
}

std::string gib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", bytes / (1 << 30));
  return text;
}

}  // namespace

std::string SddmmFamily::description() const {
  return "Sampled dense-dense matrix product: for every stored entry (i, j) of the workload's sparse "
         "matrix S, c = sum over k of A[i,k]·B[j,k], with A (rows x k) and B (cols x k) dense and "
         "row-major, written in S's CSR order. S's values are not multiplied in (cuSPARSE's SDDMM, "
         "the baseline, computes (A·Bᵀ)∘spy(C) on C's pattern alike). Schedules: a group of lanes per "
         "nonzero, several nonzeros a group (nonzero); a group per row holding A's row in registers "
         "(row); or ASpT tiling, which stages the B rows of each row panel's dense columns in shared "
         "memory (tiled)";
}

ProblemSchema SddmmFamily::problem_schema() const {
  return {{ProblemField::integer("k", 1, kSddmmMaxK, kSddmmDefaultK, "the dense width K of A and B")}};
}

void SddmmFamily::check_problem(const Workload& w, const Problem& p) const {
  const double bytes = device_bytes(w.matrix, sddmm_k(p), p.precision.input);
  if (bytes > kMaxDeviceBytes) {
    throw LimitError("sddmm with k = " + std::to_string(sddmm_k(p)) + " on a " + std::to_string(w.matrix.rows) + " x " +
                     std::to_string(w.matrix.cols) + " matrix needs " + gib(bytes) +
                     " of device memory for A, B, C and S's structure; ktune takes at most " + gib(kMaxDeviceBytes) +
                     " (ask for a smaller k)");
  }
  const double operand_bytes = (static_cast<double>(w.matrix.rows) + w.matrix.cols) * sddmm_k(p) *
                               static_cast<double>(dtype_size(p.precision.input));
  check_host_operands("sddmm with k = " + std::to_string(sddmm_k(p)) + " (A and B)", operand_bytes, "ask for a smaller k");
}

ParameterSpace SddmmFamily::space(const Problem& p) const { return sddmm_space(sddmm_k(p)); }

KernelSource SddmmFamily::source(const Problem& p, const Config& config) const {
  const SddmmConfig c = SddmmConfig::from(config, sddmm_k(p));
  const Dtype dtype = p.precision.input;
  KernelSource s;
  s.code = std::string(templates::k_sddmm_common_cuh);
  if (c.schedule == SddmmSchedule::Nonzero) {
    s.code += templates::k_sddmm_nonzero_cu;
  } else {
    s.code += std::string(templates::k_sddmm_a_tile_cuh) +
              std::string(c.schedule == SddmmSchedule::Row ? templates::k_sddmm_row_cu : templates::k_sddmm_tiled_cu);
  }
  s.entries = {"sddmm_" + c.schedule_name()};
  s.options = {std::string("-DKT_VALUE=") + (dtype == Dtype::F32 ? "float" : "double"),
               "-DKT_BLOCK=" + std::to_string(c.block), "-DKT_K=" + std::to_string(sddmm_k(p)),
               "-DKT_LANES=" + std::to_string(c.lanes), "-DKT_VEC=" + std::to_string(c.vec)};
  if (c.schedule == SddmmSchedule::Nonzero) {
    s.options.push_back("-DKT_COARSEN=" + std::to_string(c.coarsen));
  } else {
    s.options.push_back("-DKT_CHUNKS=" + std::to_string(c.chunks));
  }
  if (c.schedule == SddmmSchedule::Tiled) s.options.push_back("-DKT_SLOTS=" + std::to_string(c.slots(dtype)));
  return s;
}

std::vector<LaunchStep> SddmmFamily::launches(const Workload& w, const Problem& p, const Config& config) const {
  return {sddmm_launch(w.matrix, SddmmConfig::from(config, sddmm_k(p)))};
}

LaunchPlan SddmmFamily::prepare(const Workload& w, const Problem& p, const Config& config) const {
  return plan_from(w, p, config, nullptr);
}

LaunchPlan SddmmFamily::prepare_next(const Workload& w, const Problem& p, const Config& config,
                                     const LaunchPlan& previous) const {
  return plan_from(w, p, config, &previous);
}

LaunchPlan SddmmFamily::plan_from(const Workload& w, const Problem& p, const Config& config,
                                  const LaunchPlan* previous) const {
  const CsrF64& s = w.matrix;
  const int32_t k = sddmm_k(p);
  const SddmmConfig c = SddmmConfig::from(config, k);
  const Dtype dtype = p.precision.input;
  LaunchPlan plan;
  plan.family = name();
  plan.problem = p;
  for (const std::string& buffer : input_names(c.schedule)) {
    if (!configuration_independent(buffer)) continue;  // the tiling, below
    if (const DeviceBuffer* shared = shared_input(previous, buffer)) {
      plan.buffers.push_back(*shared);
      // Only nonzero plans hold row_idx: what building it cost the first of them.
      if (buffer == "row_idx") plan.prepare_seconds = previous->prepare_seconds;
      continue;
    }
    const auto start = std::chrono::steady_clock::now();
    plan.buffers.push_back(common_input(buffer, s, k, dtype));
    if (buffer == "row_idx") plan.prepare_seconds = seconds_since(start);
  }
  if (c.schedule == SddmmSchedule::Tiled) {
    const auto start = std::chrono::steady_clock::now();
    for (DeviceBuffer& b : tiling_inputs(s, c, dtype)) plan.buffers.push_back(std::move(b));
    plan.prepare_seconds = seconds_since(start);
  }
  plan.buffers.push_back(output_buffer("c", static_cast<size_t>(s.nnz()), dtype));
  plan.outputs = {{"c", static_cast<size_t>(s.nnz()), dtype}};
  plan.steps = {sddmm_launch(s, c)};
  return plan;
}

Reference SddmmFamily::reference(const Workload& w, const Problem& p) const {
  const int32_t k = sddmm_k(p);
  return {{"c", sddmm_reference(w.matrix, dense_operand(DenseOperand::A, w.matrix.rows, k),
                                dense_operand(DenseOperand::B, w.matrix.cols, k), k)}};
}

Verdict SddmmFamily::verify(const Problem& p, const PlanOutput& output, std::string_view got,
                            const std::vector<double>& expected, const CheckData&) const {
  const double k = sddmm_k(p);
  return check_reduction_output(got, output.dtype, expected, [k](size_t) { return k; });
}

std::vector<VendorCall> SddmmFamily::vendor_calls(const Workload& w, const Problem& p) const {
  const CsrF64& s = w.matrix;
  return {{"cusparse_sddmm", "cusparse-default",
           {{"rows", s.rows}, {"cols", s.cols}, {"nnz", s.nnz()}, {"k", sddmm_k(p)}, {"row_ptr", "row_ptr"},
            {"col_idx", "col_idx"}, {"a", "a"}, {"b", "b"}, {"c", "c"}}}};
}

LaunchPlan SddmmFamily::vendor_plan(const Workload& w, const Problem& p) const {
  // cuSPARSE reads S's CSR as it is, which the row schedule's plan holds, with A, B and C.
  return prepare(w, p, sddmm_first_config(SddmmSchedule::Row, sddmm_k(p)));
}

WorkEstimate SddmmFamily::estimate(const Workload& w, const Problem& p, const Config& config) const {
  return estimate_sddmm(w.matrix, SddmmConfig::from(config, sddmm_k(p)), sddmm_k(p), p.precision.input);
}

double SddmmFamily::flops(const Workload& w, const Problem& p) const {
  return 2.0 * static_cast<double>(w.matrix.nnz()) * sddmm_k(p);
}

double SddmmFamily::min_bytes(const Workload& w, const Problem& p) const {
  return sddmm_min_bytes(w.matrix, sddmm_k(p), p.precision.input);
}

std::optional<std::vector<double>> SddmmFamily::block_weights(const LaunchPlan& plan, const LaunchStep& step) const {
  return sddmm_block_weights(plan, step);
}

std::vector<std::string_view> SddmmFamily::templates() const {
  return {templates::k_sddmm_common_cuh, templates::k_sddmm_a_tile_cuh, templates::k_sddmm_nonzero_cu,
          templates::k_sddmm_row_cu, templates::k_sddmm_tiled_cu};
}

std::unique_ptr<KernelFamily> make_sddmm_family() { return std::make_unique<SddmmFamily>(); }

}  // namespace ktune
