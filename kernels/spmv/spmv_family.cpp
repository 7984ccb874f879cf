#include "kernels/spmv/spmv_family.h"

#include "kernel_templates.h"
#include "kernels/device_buffers.h"
#include "kernels/input_vector.h"
#include "kernels/spmv/spmv_config.h"
#include "kernels/spmv/spmv_estimate.h"
#include "kernels/spmv/spmv_reference.h"

namespace ktune {

namespace {

std::string_view schedule_template(SpmvSchedule schedule) {
  switch (schedule) {
    case SpmvSchedule::Row:
      return templates::k_spmv_row_cu;
    case SpmvSchedule::Subwarp:
      return templates::k_spmv_subwarp_cu;
    case SpmvSchedule::Merge:
      return templates::k_spmv_merge_cu;
  }
  return {};
}

}  // namespace

std::string SpmvFamily::description() const {
  return "Sparse matrix-vector product y = A·x on CSR: one thread per row (row), a sub-warp of "
         "lanes per row (subwarp), or merge-path load balancing over rows + nonzeros (merge)";
}

ParameterSpace SpmvFamily::space() const { return spmv_space(); }

KernelSource SpmvFamily::source(const Config& config, Dtype dtype) const {
  const SpmvConfig c = SpmvConfig::from(config);
  KernelSource s;
  s.code = std::string(templates::k_spmv_common_cuh) + std::string(schedule_template(c.schedule));
  s.entries = {"spmv_" + c.schedule_name()};
  s.options = {std::string("-DKT_VALUE=") + (dtype == Dtype::F32 ? "float" : "double"),
               "-DKT_BLOCK=" + std::to_string(c.block)};
  if (c.schedule == SpmvSchedule::Subwarp)
    s.options.push_back("-DKT_LANES=" + std::to_string(c.lanes));
  if (c.schedule == SpmvSchedule::Merge) {
    s.options.push_back("-DKT_ITEMS=" + std::to_string(c.items_per_thread));
  }
  return s;
}

std::vector<LaunchStep> SpmvFamily::launches(const Workload& w, const Config& config) const {
  const SpmvConfig c = SpmvConfig::from(config);
  const CsrF64& a = w.matrix;
  LaunchStep step;
  step.entry = "spmv_" + c.schedule_name();
  step.grid.x = static_cast<uint32_t>(c.blocks(a.rows, a.nnz()));
  step.block.x = static_cast<uint32_t>(c.block);
  step.args.push_back(KernelArg::of_scalar(a.rows));
  if (c.schedule == SpmvSchedule::Merge) {
    step.args.push_back(KernelArg::of_scalar(static_cast<int32_t>(a.nnz())));
  }
  for (const char* buffer : {"row_ptr", "col_idx", "values", "x", "y"}) {
    step.args.push_back(KernelArg::of_buffer(buffer));
  }
  return {step};
}

// CSR is the kernels' own format: nothing to convert, so prepare_seconds stays 0.
LaunchPlan SpmvFamily::prepare(const Workload& w, const Config& config, Dtype dtype) const {
  const CsrF64& a = w.matrix;
  LaunchPlan plan;
  plan.steps = launches(w, config);
  plan.buffers.push_back(index_buffer("row_ptr", a.row_ptr));
  plan.buffers.push_back(index_buffer("col_idx", a.col_idx));
  plan.buffers.push_back(value_buffer("values", a.values, dtype));
  plan.buffers.push_back(value_buffer("x", deterministic_input_vector(a.cols), dtype));
  plan.buffers.push_back(output_buffer("y", a.rows, dtype));
  plan.output = "y";
  plan.output_elements = a.rows;
  plan.zero_output_first = SpmvConfig::from(config).schedule == SpmvSchedule::Merge;
  return plan;
}

std::vector<double> SpmvFamily::reference(const Workload& w) const {
  return spmv_reference(w.matrix, deterministic_input_vector(w.matrix.cols));
}

WorkEstimate SpmvFamily::estimate(const Workload& w, const Config& config, Dtype dtype) const {
  return estimate_spmv(w.matrix, SpmvConfig::from(config), dtype);
}

double SpmvFamily::flops(const Workload& w) const {
  return 2.0 * static_cast<double>(w.matrix.nnz());
}

double SpmvFamily::min_bytes(const Workload& w, Dtype dtype) const {
  return spmv_min_bytes(w.matrix, dtype);
}

}  // namespace ktune
