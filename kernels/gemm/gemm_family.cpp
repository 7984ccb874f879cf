#include "kernels/gemm/gemm_family.h"

#include <algorithm>
#include <memory>

#include "kernel_templates.h"
#include "kernels/device_buffers.h"
#include "kernels/gemm/gemm_check.h"
#include "kernels/host_memory_limit.h"
#include "kernels/gemm/gemm_config.h"
#include "kernels/gemm/gemm_estimate.h"
#include "kernels/gemm/gemm_operands.h"
#include "kernels/gemm/gemm_reference.h"
#include "kernels/gemm/gemm_schedule.h"
#include "kernels/gemm/gemm_staging.h"
#include "kernels/gemm/gemm_vendor.h"
#include "kernels/gemm/gemm_wgmma_call.h"
#include "workload/input_error.h"

namespace ktune {

namespace {

const char* c_type(Dtype d) {
  switch (d) {
    case Dtype::F64: return "double";
    case Dtype::BF16:
    case Dtype::F16: return "unsigned short";  // raw 16-bit words: the tensor kernel converts nothing
    default: return "float";
  }
}

const char* entry_of(const GemmConfig& c) {
  switch (c.kernel) {
    case GemmKernel::Tensor: return "gemm_tensor";
    case GemmKernel::Wgmma: return c.loader == GemmLoader::Tma ? "gemm_wgmma_tma" : "gemm_wgmma";
    case GemmKernel::Dmma: return "gemm_dmma";
    default: return "gemm_simt";
  }
}

// TMA's view of a k-major operand (A, or B stored transposed): `rows` rows of s.k elements,
// every batch's stacked (a tile's rows past its batch's end read the next batch's, which only
// the unstored rows or columns of C see), boxes of 128 bytes of k in 128-byte swizzle,
// `box_rows` deep (half the tile's rows where a cluster of 2 shares the operand).
TensorMapArg k_major_map(const char* buffer, const GemmShape& s, const Precision& p, int64_t rows, int64_t box_rows) {
  TensorMapArg m;
  m.buffer = buffer;
  m.dtype = p.input;
  m.dims = {static_cast<uint64_t>(s.k), static_cast<uint64_t>(rows)};
  m.strides = {static_cast<uint64_t>(s.k) * dtype_size(p.input)};
  m.box = {static_cast<uint32_t>(gemm_wgmma_bk(p)), static_cast<uint32_t>(box_rows)};
  m.swizzle_bytes = 128;
  return m;
}

// TMA's view of C (f32) as the TMA kernel stores it: n x m x batch, so that a ragged tile's rows
// past its batch's end are clipped, not written into the next batch; boxes of a warp's 16 rows
// by 16 columns (64 bytes), in the 64-byte swizzle its epilogue writes them in.
TensorMapArg c_map(const GemmShape& s, const Precision& p) {
  TensorMapArg m;
  m.buffer = "c";
  m.dtype = p.output;
  const uint64_t row_bytes = static_cast<uint64_t>(s.n) * dtype_size(p.output);
  m.dims = {static_cast<uint64_t>(s.n), static_cast<uint64_t>(s.m), static_cast<uint64_t>(s.batch)};
  m.strides = {row_bytes, row_bytes * static_cast<uint64_t>(s.m)};
  m.box = {16, 16, 1};
  m.swizzle_bytes = 64;
  return m;
}

// The product's launch, on the operands as staged (gemm_staging.h): `s` is the shape it reads.
LaunchStep gemm_launch(const GemmShape& s, const GemmStaging& staged, const GemmConfig& c, const Precision& p) {
  const GemmSchedule g = GemmSchedule::of(s, c);
  const bool tma = c.kernel == GemmKernel::Wgmma && c.loader == GemmLoader::Tma;
  LaunchStep step;
  step.entry = entry_of(c);
  step.grid.x = static_cast<uint32_t>(g.grid);
  step.block.x = static_cast<uint32_t>(c.block_threads());
  step.cluster.x = static_cast<uint32_t>(c.cluster);
  // The tensor-core kernels' ring of slices is dynamic shared memory (more than 48 KiB opts in).
  if (c.kernel != GemmKernel::Simt) step.shared_bytes = static_cast<uint32_t>(c.shared_bytes(s, p));
  for (int64_t v : {s.m, s.n, s.k, s.batch, g.tiles_m, g.tiles_n, g.ipt, g.sk_tiles, g.sk_ctas, g.sk_share, g.sk_extra,
                    g.split, g.grid, g.units})
    step.args.push_back(KernelArg::of_scalar(static_cast<int32_t>(v)));
  if (tma) {
    const int64_t share = c.shared_operand();
    step.args.push_back(
        KernelArg::of_tensor_map(k_major_map(staged.a_buffer(), s, p, s.batch * s.m, share == 1 ? c.bm / 2 : c.bm)));
    step.args.push_back(
        KernelArg::of_tensor_map(k_major_map(staged.b_buffer(), s, p, s.batch * s.n, share == 2 ? c.bn / 2 : c.bn)));
    if (c.stores_by_tma(s)) step.args.push_back(KernelArg::of_tensor_map(c_map(s, p)));
  } else {
    for (const char* buffer : {staged.a_buffer(), staged.b_buffer()}) step.args.push_back(KernelArg::of_buffer(buffer));
  }
  for (const char* buffer : {"c", "workspace", "counters"}) step.args.push_back(KernelArg::of_buffer(buffer));
  return step;
}

// Split-K's sum of its parts' copies of C (gemm_split_reduce.cu): a few waves of blocks of 256
// striding over C.
LaunchStep split_reduce_launch(const GemmShape& s, const GemmSchedule& g) {
  const int64_t elements = s.batch * s.m * s.n;
  LaunchStep step;
  step.entry = "gemm_split_reduce";
  step.grid.x = static_cast<uint32_t>(std::min<int64_t>((elements + 255) / 256, 8 * kGemmSms));
  step.block.x = 256;
  step.args = {KernelArg::of_buffer("workspace"), KernelArg::of_buffer("c"), KernelArg::of_scalar(elements),
               KernelArg::of_scalar(static_cast<int32_t>(g.split))};
  return step;
}

// Every launch of a configuration: the operands' staging, the product, split-K's sum.
std::vector<LaunchStep> gemm_launches(const GemmShape& s, const GemmConfig& c, const Precision& p) {
  const GemmStaging staged = GemmStaging::of(s, c, p);
  std::vector<LaunchStep> steps = staged.launches(s);
  steps.push_back(gemm_launch(staged.run, staged, c, p));
  const GemmSchedule g = GemmSchedule::of(s, c);
  if (g.reduce_launch()) steps.push_back(split_reduce_launch(s, g));
  return steps;
}

}  // namespace

std::string GemmFamily::description() const {
  return "Dense C = A·B (batched), operands generated from their indices and stored row-major, "
         "A and B each as is or transposed (problem.layout: nn, nt, tn, tt). A BM x BN tile per "
         "CTA through shared memory: SIMT FMA micro-tiles for f32, f64 and tf32, m16n8k8 mma.sync (DMMA for f64, "
         "tf32 on f32 inputs) from a cp.async ring, fragments a step ahead, m16n8k16 mma.sync fed by "
         "ldmatrix from a ring of cp.async stages for bf16 and f16, or (sm_90a) wgmma reading both operands "
         "from 128-byte-swizzled stages filled by cp.async or by TMA (one producer thread, mbarrier-signalled stages, "
         "optionally a cluster of 2 CTAs multicasting the operand their tiles share; an operand not stored k-major "
         "with 16-byte aligned rows is first copied so), for bf16, f16 and tf32 inputs (f32 "
         "accumulate and output). The MAC-loop iterations "
         "are decomposed data-parallel, fixed split-K, Stream-K (sk_grid CTAs, partial tiles fixed "
         "up through a workspace) or two-tile Stream-K + data-parallel (hybrid), tiles taken in "
         "groups of raster tile-rows. Checked on a sample of C against double precision";
}

ProblemSchema GemmFamily::problem_schema() const {
  return {{ProblemField::integer("m", 1, kGemmMaxExtent, 128, "rows of A and C"),
           ProblemField::integer("n", 1, kGemmMaxExtent, 128, "columns of B and C"),
           ProblemField::integer("k", 1, kGemmMaxExtent, 128, "columns of A, rows of B"),
           ProblemField::integer("batch", 1, kGemmMaxBatch, 1, "independent products, stored one after another"),
           ProblemField::choice("layout", {"nn", "nt", "tn", "tt"}, "nn",
                                "A and B row-major as is (n) or transposed (t): nt reads both along k")}};
}

std::vector<Precision> GemmFamily::precisions() const {
  return {Precision::uniform(Dtype::F32), Precision::uniform(Dtype::F64), {Dtype::BF16, Dtype::F32, Dtype::F32},
          {Dtype::F16, Dtype::F32, Dtype::F32}, {Dtype::TF32, Dtype::F32, Dtype::F32}};
}

void GemmFamily::check_problem(const Workload&, const Problem& p) const {
  const GemmShape s = GemmShape::of(p);
  const double bytes = gemm_operand_bytes(s, p.precision);
  if (bytes > kGemmMaxDeviceBytes) {
    throw LimitError("gemm " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) +
                     " (batch " + std::to_string(s.batch) + ") in " + to_string(p.precision) + " needs " +
                     std::to_string(static_cast<int64_t>(bytes / (1 << 20))) + " MiB for A, B and C, over the " +
                     std::to_string(static_cast<int64_t>(kGemmMaxDeviceBytes / (1 << 20))) + " MiB a device holds");
  }
  check_host_operands("gemm " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) + " (A and B)",
                      (s.a_elements() + s.b_elements()) * static_cast<double>(dtype_size(p.precision.input)),
                      "ask for a smaller shape");
}

ParameterSpace GemmFamily::space(const Problem& p) const { return gemm_space(GemmShape::of(p), p.precision); }

KernelSource GemmFamily::source(const Problem& p, const Config& config) const {
  const GemmConfig c = GemmConfig::from(config, p.precision);
  const GemmStaging staged = GemmStaging::of(GemmShape::of(p), c, p.precision);
  const GemmShape& s = staged.run;  // as the product reads it
  KernelSource src;
  src.code = templates::k_gemm_common_cuh;
  switch (c.kernel) {
    case GemmKernel::Tensor: src.code += templates::k_gemm_tensor_cu; break;
    case GemmKernel::Wgmma:
      src.code += wgmma_call_source(c.tn, p.precision.input);
      src.code += templates::k_gemm_wgmma_parts_cuh;
      if (c.loader == GemmLoader::Tma) {
        src.code += templates::k_gemm_tma_ops_cuh;
        src.code += templates::k_gemm_wgmma_tma_cu;
      } else {
        src.code += templates::k_gemm_wgmma_cu;
      }
      src.arch_specific = true;
      break;
    case GemmKernel::Dmma:
      src.code += templates::k_gemm_dmma_ops_cuh;
      src.code += templates::k_gemm_dmma_cu;
      break;
    default: src.code += templates::k_gemm_simt_cu;
  }
  src.entries = {entry_of(c)};
  if (staged.any()) {
    src.code += templates::k_gemm_stage_cu;
    src.entries.push_back("gemm_stage_k_major");
  }
  const bool reduce = GemmSchedule::of(s, c).reduce_launch();
  if (reduce) {
    src.code += templates::k_gemm_split_reduce_cu;
    src.entries.push_back("gemm_split_reduce");
  }
  src.options = {std::string("-DKT_IN=") + c_type(p.precision.input),
                 std::string("-DKT_ACC=") + c_type(p.precision.accumulate),
                 "-DKT_BM=" + std::to_string(c.bm),
                 "-DKT_BN=" + std::to_string(c.bn),
                 "-DKT_BK=" + std::to_string(c.bk),
                 "-DKT_TM=" + std::to_string(c.tm),
                 "-DKT_TN=" + std::to_string(c.tn),
                 "-DKT_THREADS=" + std::to_string(c.threads()),
                 "-DKT_STAGES=" + std::to_string(c.stages),
                 "-DKT_RASTER=" + std::to_string(c.raster),
                 "-DKT_VECTOR_BYTES=" + std::to_string(c.kernel == GemmKernel::Simt ? dtype_size(p.precision.input) : 16),
                 std::string("-DKT_A_T=") + (s.a_transposed ? "1" : "0"),
                 std::string("-DKT_B_T=") + (s.b_transposed ? "1" : "0"),
                 std::string("-DKT_MMA_BF16=") + (p.precision.input == Dtype::BF16 ? "1" : "0"),
                 "-DKT_CLUSTER=" + std::to_string(c.cluster),
                 std::string("-DKT_SPLIT_REDUCE=") + (reduce ? "1" : "0"),
                 "-DKT_SHARE=" + std::to_string(c.shared_operand()),
                 std::string("-DKT_PRODUCER_WARP=") + (c.loader == GemmLoader::Tma ? "1" : "0"),
                 std::string("-DKT_TMA_STORE=") + (c.stores_by_tma(s) ? "1" : "0"),
                 // 16-byte copies need each operand's rows to start 16-byte aligned.
                 std::string("-DKT_ALIGNED=") +
                     (s.rows_aligned(16 / static_cast<int64_t>(dtype_size(p.precision.input))) ? "1" : "0")};
  if (c.kernel == GemmKernel::Wgmma) src.options.push_back("-DKT_MIN_CTAS=" + std::to_string(c.resident_ctas(s, p.precision)));
  return src;
}

std::vector<LaunchStep> GemmFamily::launches(const Workload&, const Problem& p, const Config& config) const {
  return gemm_launches(GemmShape::of(p), GemmConfig::from(config, p.precision), p.precision);
}

LaunchPlan GemmFamily::plan_with(const Problem& p, const Config& config, DeviceBuffer a, DeviceBuffer b,
                                 std::map<std::string, HostBytes> samples) const {
  const GemmShape s = GemmShape::of(p);
  const GemmConfig c = GemmConfig::from(config, p.precision);
  const GemmSchedule g = GemmSchedule::of(s, c);
  LaunchPlan plan;
  plan.family = name();
  plan.problem = p;
  plan.buffers = {std::move(a), std::move(b)};
  const size_t elements = static_cast<size_t>(s.c_elements());
  plan.buffers.push_back(output_buffer("c", elements, p.precision.output));
  plan.buffers.push_back(
      output_buffer("workspace", std::max<size_t>(1, static_cast<size_t>(g.workspace_elements(c))), p.precision.accumulate));
  // Zero once: the CTA fixing a tile up resets its count for the next run.
  const bool shared_tiles = g.sk_ctas > 0;
  plan.buffers.push_back(input_buffer("counters", std::vector<int32_t>(shared_tiles ? g.tiles : 1, 0)));
  const GemmStaging staged = GemmStaging::of(s, c, p.precision);
  if (staged.a) plan.buffers.push_back(output_buffer("a_k_major", static_cast<size_t>(staged.a_elements()), p.precision.input));
  if (staged.b) plan.buffers.push_back(output_buffer("b_k_major", static_cast<size_t>(staged.b_elements()), p.precision.input));
  const size_t sampled = samples.at("sample_index").size() / sizeof(int64_t);
  plan.outputs = {{"c", elements, p.precision.output, sampled}};
  plan.check_data = std::move(samples);
  plan.steps = gemm_launches(s, c, p.precision);
  return plan;
}

LaunchPlan GemmFamily::prepare(const Workload&, const Problem& p, const Config& config) const {
  const GemmShape s = GemmShape::of(p);
  return plan_with(p, config, gemm_operand_buffer("a", GemmOperand::A, s.a_elements(), p.precision.input),
                   gemm_operand_buffer("b", GemmOperand::B, s.b_elements(), p.precision.input), gemm_sample_data(s));
}

LaunchPlan GemmFamily::prepare_next(const Workload& w, const Problem& p, const Config& config,
                                    const LaunchPlan& previous) const {
  const DeviceBuffer* a = previous.buffer("a");
  const DeviceBuffer* b = previous.buffer("b");
  if (!a || !b || previous.check_data.count("sample_index") == 0) return prepare(w, p, config);
  return plan_with(p, config, *a, *b, previous.check_data);
}

Reference GemmFamily::reference(const Workload&, const Problem& p) const {
  const GemmShape s = GemmShape::of(p);
  std::vector<double> values;
  for (int64_t i : gemm_sample_indices(s)) values.push_back(gemm_reference_at(s, i).value);
  return {{"c", std::move(values)}};
}

Verdict GemmFamily::verify(const Problem& p, const PlanOutput& output, std::string_view got,
                           const std::vector<double>& expected, const CheckData& data) const {
  return check_gemm_sample(GemmShape::of(p), p.precision, output, got, expected, data);
}

std::vector<VendorCall> GemmFamily::vendor_calls(const Workload&, const Problem& p) const {
  return gemm_vendor_calls(GemmShape::of(p));
}

LaunchPlan GemmFamily::vendor_plan(const Workload& w, const Problem& p) const {
  // cuBLAS reads A and B and writes C: any configuration's plan holds them.
  return prepare(w, p, space(p).first_valid());
}

WorkEstimate GemmFamily::estimate(const Workload&, const Problem& p, const Config& config) const {
  return estimate_gemm(GemmShape::of(p), GemmConfig::from(config, p.precision), p.precision);
}

// The interpreter runs the SIMT kernel only, and only f32's space holds nothing else: an f64
// space's SIMT candidates, emulated beside DMMA ones the first model answers, would be ranked on
// another scale than the rest (and each f64 emulation of 1000^3 took seconds of a walk).
bool GemmFamily::emulable(const Problem& p, const Config& config) const {
  return p.precision.input == Dtype::F32 && GemmConfig::from(config, p.precision).kernel == GemmKernel::Simt;
}

double GemmFamily::flops(const Workload&, const Problem& p) const { return 2.0 * GemmShape::of(p).c_elements() * GemmShape::of(p).k; }

double GemmFamily::min_bytes(const Workload&, const Problem& p) const {
  return gemm_operand_bytes(GemmShape::of(p), p.precision);
}

std::vector<std::string_view> GemmFamily::templates() const {
  return {templates::k_gemm_common_cuh,    templates::k_gemm_simt_cu,      templates::k_gemm_tensor_cu,
          templates::k_gemm_wgmma_parts_cuh, templates::k_gemm_wgmma_cu,     templates::k_gemm_tma_ops_cuh,
          templates::k_gemm_wgmma_tma_cu,    templates::k_gemm_dmma_ops_cuh, templates::k_gemm_dmma_cu,
          templates::k_gemm_stage_cu,        templates::k_gemm_split_reduce_cu};
}

std::unique_ptr<KernelFamily> make_gemm_family() { return std::make_unique<GemmFamily>(); }

}  // namespace ktune
