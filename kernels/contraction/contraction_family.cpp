#include "kernels/contraction/contraction_family.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "kernel_templates.h"
#include "kernels/contraction/contraction_reference.h"
#include "kernels/contraction/contraction_spec.h"
#include "kernels/contraction/contraction_tiled.h"
#include "kernels/contraction/contraction_vendor.h"
#include "kernels/device_buffers.h"
#include "kernels/output_check.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

// What one problem may ask of a device: T3 in and out, A and B.
constexpr double kMaxContractionBytes = 32.0 * (1ull << 30);

const std::vector<std::string> kSchedules = {"direct", "tiled"};
constexpr int64_t kTiled = 1;
// Registers a thread spends on indices and addresses besides its values (ptxas: 20-30).
constexpr int64_t kIndexRegisters = 24;
constexpr double kSectorBytes = 32;

bool tiled(const Config& c) { return c.at("schedule") == kTiled; }

struct DirectConfig {
  int64_t block, coarsen, coarsen2, unroll;
  static DirectConfig of(const Config& c) { return {c.at("block"), c.at("coarsen"), c.at("coarsen2"), c.at("unroll")}; }
};

// The output's first index that the operand without its fastest index supplies: the second
// direction of a thread's tile (0, with coarsen2 1, when one operand supplies them all).
size_t second_direction(const ContractionSpec& s) {
  const bool first_from_a = std::find(s.a.begin(), s.a.end(), s.out[0]) != s.a.end();
  for (size_t d = 1; d < s.out.size(); ++d)
    if ((std::find(s.a.begin(), s.a.end(), s.out[d]) != s.a.end()) != first_from_a) return d;
  return 0;
}

LaunchStep direct_launch(const ContractionSpec& s, const DirectConfig& c) {
  LaunchStep step;
  step.entry = "contraction_direct";
  const int64_t threads = s.out_elements() / (c.coarsen * c.coarsen2);
  step.grid.x = static_cast<uint32_t>((threads + c.block - 1) / c.block);
  step.block.x = static_cast<uint32_t>(c.block);
  for (const char* buffer : {"t_in", "a", "b", "t_out"}) step.args.push_back(KernelArg::of_buffer(buffer));
  step.args.push_back(KernelArg::of_scalar(static_cast<int64_t>(s.out_elements())));
  return step;
}

}  // namespace

std::string ContractionFamily::description() const {
  return "A tensor contraction out = in ± A·B in index notation (problem.expression, first index "
         "fastest), or one of NWChem's 18 CCSD(T) triples contractions (problem.preset), every "
         "extent problem.extent; operands generated from their indices, exact in f32 and f64. A "
         "thread per tile of coarsen outputs along the fastest output index times coarsen2 along "
         "the first output index of the other operand (a register tile: each summed term loads "
         "coarsen + coarsen2 values for coarsen x coarsen2 multiply-adds); the summed indices "
         "walked in order, unrolled. Schedule direct reads the operands through the caches; "
         "schedule tiled stages a block's slices of them in shared memory, the block owning tile "
         "outputs along the fastest index (and the next of its operand) times block * coarsen * "
         "coarsen2 / tile along the other operand's. Checked in full";
}

ProblemSchema ContractionFamily::problem_schema() const {
  std::vector<std::string> names;
  for (const auto& [name, text] : contraction_presets()) names.push_back(name);
  return {{ProblemField::choice("preset", names, "sd_t_d1_1", "an NWChem CCSD(T) triples contraction"),
           ProblemField::text("expression", 256, "",
                              "the contraction itself, e.g. 'T3[h3,h2,h1,p6,p5,p4] -= t2[h7,p4,p5,h1] * "
                              "v2[h3,h2,p6,h7]' (empty: the preset)"),
           ProblemField::integer("extent", 1, kContractionMaxExtent, 8, "every index's extent (NWChem's tiles: 16)")}};
}

std::vector<Precision> ContractionFamily::precisions() const {
  return {Precision::uniform(Dtype::F64), Precision::uniform(Dtype::F32)};
}

void ContractionFamily::check_problem(const Workload&, const Problem& p) const {
  const ContractionSpec s = ContractionSpec::of(p);
  const double e = static_cast<double>(s.extent), size = dtype_size(p.precision.input);
  const double out = std::pow(e, static_cast<double>(s.out.size()));
  const double bytes = size * (2 * out + std::pow(e, static_cast<double>(s.a.size())) +
                               std::pow(e, static_cast<double>(s.b.size())));
  if (bytes > kMaxContractionBytes || std::pow(e, static_cast<double>(s.contracted().size())) > 1 << 30)
    throw LimitError("contraction " + s.text() + " at extent " + std::to_string(s.extent) + " needs " +
                     std::to_string(static_cast<int64_t>(bytes / (1 << 20))) + " MiB of operands (at most " +
                     std::to_string(static_cast<int64_t>(kMaxContractionBytes / (1 << 20))) +
                     ") or sums over more than 2^30 terms");
}

ParameterSpace ContractionFamily::space(const Problem& p) const {
  const ContractionSpec spec = ContractionSpec::of(p);
  const int64_t extent = spec.extent;
  ParameterSpace s;
  const bool two_directions = second_direction(spec) > 0;
  s.params = {Parameter::enumeration("schedule", kSchedules),
              Parameter::power_of_two("block", 32, 1024),
              Parameter::power_of_two("coarsen", 1, 16),
              Parameter::power_of_two("coarsen2", 1, 8),
              Parameter::power_of_two("unroll", 1, 16),
              Parameter::power_of_two("tile", 1, 256)};
  s.constraints = {
      {"schedule direct needs tile 1 (its block is a run of threads, not a tile)",
       [](const Config& c) { return tiled(c) || c.at("tile") == 1; }},
      {"schedule direct needs coarsen and coarsen2 to divide the extent (a thread's tile lies inside the tensor)",
       [extent](const Config& c) {
         return tiled(c) || (extent % c.at("coarsen") == 0 && extent % c.at("coarsen2") == 0);
       }},
      {"coarsen2 needs an output index from the other operand", [two_directions](const Config& c) {
         return two_directions || c.at("coarsen2") == 1;
       }},
      {"at most 32 outputs a thread (its accumulators stay in registers)",
       [](const Config& c) { return c.at("coarsen") * c.at("coarsen2") <= 32; }},
      {"schedule tiled: the tile fits the kernel (contraction_tiled.h)", [spec](const Config& c) {
         return !tiled(c) || ContractionTiling::of(spec, c).violation(spec).empty();
       }}};
  // The emulator reads PTX, which has no spills: a register tile ptxas moved to local memory
  // (32 outputs a thread in a block of 1024 ran 16 times slower) is refused before it is ranked.
  s.hardware_constraints = {{"a thread's outputs stay in registers (ptxas spills none)",
                             [](const Config&, const KernelResources& r, const DeviceLimits&) { return r.spill_bytes == 0; }}};
  return s;
}

KernelSource ContractionFamily::source(const Problem& p, const Config& config) const {
  const ContractionSpec s = ContractionSpec::of(p);
  KernelSource src;
  if (tiled(config)) {
    src.code = templates::k_contraction_tiled_cu;
    src.entries = {"contraction_tiled"};
    src.options = ContractionTiling::of(s, config).options(s, p.precision.input);
    return src;
  }
  const DirectConfig c = DirectConfig::of(config);
  const std::vector<std::string> con = s.contracted();
  src.code = templates::k_contraction_direct_cu;
  src.entries = {"contraction_direct"};
  src.options = {std::string("-DKT_T=") + (p.precision.input == Dtype::F64 ? "double" : "float"),
                 "-DKT_BLOCK=" + std::to_string(c.block),
                 "-DKT_COARSEN=" + std::to_string(c.coarsen),
                 "-DKT_COARSEN2=" + std::to_string(c.coarsen2),
                 "-DKT_D2=" + std::to_string(second_direction(s)),
                 "-DKT_UNROLL=" + std::to_string(c.unroll),
                 std::string("-DKT_SUBTRACT=") + (s.sign < 0 ? "1" : "0"),
                 "-DKT_EXTENT=" + std::to_string(s.extent),
                 "-DKT_NOUT=" + std::to_string(s.out.size()),
                 "-DKT_NCON=" + std::to_string(con.size()),
                 "-DKT_CONTRACTED=" + std::to_string(s.contracted_elements()),
                 "-DKT_OUT_A=" + braced(s.strides_in(s.a, s.out)),
                 "-DKT_OUT_B=" + braced(s.strides_in(s.b, s.out)),
                 "-DKT_CON_A=" + braced(s.strides_in(s.a, con)),
                 "-DKT_CON_B=" + braced(s.strides_in(s.b, con))};
  return src;
}

std::vector<LaunchStep> ContractionFamily::launches(const Workload&, const Problem& p, const Config& config) const {
  const ContractionSpec s = ContractionSpec::of(p);
  if (tiled(config)) return {ContractionTiling::of(s, config).launch(s)};
  return {direct_launch(s, DirectConfig::of(config))};
}

LaunchPlan ContractionFamily::prepare(const Workload& w, const Problem& p, const Config& config) const {
  const ContractionSpec s = ContractionSpec::of(p);
  const Dtype dtype = p.precision.input;
  LaunchPlan plan;
  plan.family = name();
  plan.problem = p;
  plan.buffers = {value_buffer("t_in", contraction_operand(ContractionTensor::In, s.out_elements()), dtype),
                  value_buffer("a", contraction_operand(ContractionTensor::A, s.a_elements()), dtype),
                  value_buffer("b", contraction_operand(ContractionTensor::B, s.b_elements()), dtype),
                  output_buffer("t_out", static_cast<size_t>(s.out_elements()), dtype)};
  plan.outputs = {{"t_out", static_cast<size_t>(s.out_elements()), dtype}};
  plan.steps = launches(w, p, config);
  return plan;
}

Reference ContractionFamily::reference(const Workload&, const Problem& p) const {
  return {{"t_out", contraction_reference(ContractionSpec::of(p))}};
}

Verdict ContractionFamily::verify(const Problem& p, const PlanOutput& output, std::string_view got,
                                  const std::vector<double>& expected, const CheckData&) const {
  const double terms = static_cast<double>(ContractionSpec::of(p).contracted_elements()) + 1;
  return check_reduction_output(got, output.dtype, expected, [terms](size_t) { return terms; });
}

// The sectors a warp of the direct schedule reads of both operands for one summed term, every
// one counted as an L2 request (the L1 hits among them are not told apart). A warp's lanes run
// along the output's fastest index, coarsen outputs apart: an operand without that index is one
// address for each other output point the warp spans; one with it at stride 1 is read whole;
// at any larger stride (at least the extent) each lane reads a sector of its own.
double direct_operand_sectors(const ContractionSpec& s, const DirectConfig& c, double element) {
  const double lanes_along_x = std::min(32.0, static_cast<double>(s.extent / c.coarsen));
  const size_t d2 = second_direction(s);
  double sectors = 0;
  for (const std::vector<std::string>* operand : {&s.a, &s.b}) {
    const std::vector<int64_t> strides = s.strides_in(*operand, s.out);
    const double loads = strides[0] != 0 ? static_cast<double>(c.coarsen)
                         : d2 > 0 && strides[d2] != 0 ? static_cast<double>(c.coarsen2) : 1;
    const double per_load = strides[0] == 0   ? std::max(1.0, 32.0 / lanes_along_x)
                            : strides[0] == 1 ? std::min(32.0, std::ceil(32 * c.coarsen * element / kSectorBytes))
                                              : 32;
    sectors += loads * per_load;
  }
  return sectors;
}

// The first model's view. Both schedules move T3 once each way and the operands once from DRAM;
// a thread's coarsen x coarsen2 old values are loads it issues together, the bytes a warp keeps
// in flight (against the model's one 16-byte load a lane). The tiled schedule's blocks each read
// their operand slices again, from L2 (which holds both operands), and hold them in shared
// memory; its registers are the accumulators, a step's operand values and about 24 for indices.
WorkEstimate ContractionFamily::estimate(const Workload& w, const Problem& p, const Config& config) const {
  const ContractionSpec s = ContractionSpec::of(p);
  const DirectConfig c = DirectConfig::of(config);
  const double element = static_cast<double>(dtype_size(p.precision.input));
  const double summed = static_cast<double>(s.contracted_elements());
  WorkEstimate e;
  e.dram_bytes = min_bytes(w, p);
  e.threads_per_block = static_cast<int32_t>(c.block);
  e.single_stage = true;
  e.loads_in_flight = static_cast<double>(c.coarsen * c.coarsen2) * element / 16;
  const int64_t words = static_cast<int64_t>(element) / 4;
  e.registers_per_thread =
      static_cast<int32_t>(words * (c.coarsen * c.coarsen2 + c.coarsen + c.coarsen2) + kIndexRegisters);
  // A thread's work: a multiply-add per output and summed term, and the tiled schedule's share of
  // its block's copies.
  double per_warp = summed * static_cast<double>(c.coarsen * c.coarsen2);
  if (tiled(config)) {
    const ContractionTiling t = ContractionTiling::of(s, config);
    e.blocks = t.blocks(s);
    e.shared_bytes_per_block = t.shared_bytes(p.precision.input);
    const double slice = summed * static_cast<double>(t.tm() + t.tn());
    e.gather_bytes = static_cast<double>(e.blocks) * slice * element;
    e.gather_footprint = static_cast<double>(s.a_elements() + s.b_elements()) * element;
    e.dram_bytes += e.gather_bytes;
    per_warp += slice / static_cast<double>(c.block);
  } else {
    e.blocks = direct_launch(s, c).grid.x;
    const double requests = direct_operand_sectors(s, c, element) * summed *
                            static_cast<double>(e.blocks * ((c.block + 31) / 32));
    e.gather_bytes = requests * kSectorBytes;
    e.gather_footprint = static_cast<double>(s.a_elements() + s.b_elements()) * element;
    e.dram_bytes += e.gather_bytes;
  }
  const int64_t warps = e.blocks * ((c.block + 31) / 32);
  e.warp_work.assign(static_cast<size_t>(warps), per_warp);
  return e;
}

std::vector<VendorCall> ContractionFamily::vendor_calls(const Workload&, const Problem& p) const {
  return contraction_vendor_calls(ContractionSpec::of(p));
}

double ContractionFamily::flops(const Workload&, const Problem& p) const {
  const ContractionSpec s = ContractionSpec::of(p);
  return 2.0 * static_cast<double>(s.out_elements()) * static_cast<double>(s.contracted_elements());
}

double ContractionFamily::min_bytes(const Workload&, const Problem& p) const {
  const ContractionSpec s = ContractionSpec::of(p);
  return static_cast<double>(dtype_size(p.precision.input)) *
         static_cast<double>(2 * s.out_elements() + s.a_elements() + s.b_elements());
}

std::vector<std::string_view> ContractionFamily::templates() const {
  return {templates::k_contraction_direct_cu, templates::k_contraction_tiled_cu};
}

std::unique_ptr<KernelFamily> make_contraction_family() { return std::make_unique<ContractionFamily>(); }

}  // namespace ktune
