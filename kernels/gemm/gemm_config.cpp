#include "kernels/gemm/gemm_config.h"

#include <algorithm>
#include <stdexcept>

#include "kernels/gemm/gemm_schedule.h"
#include "kernels/gemm/gemm_staging.h"

namespace ktune {

namespace {

const std::vector<std::string> kDecompositions = {"data_parallel", "split_k", "stream_k", "hybrid", "persistent"};
// The instruction computing the products, as the space's "mma" names it, and the kernel that
// runs it: FMA for f32; FMA or DMMA (a warp's m16n8k8 mma.sync, sm_90) for f64; for tf32 FMA
// (f32's, more exact than asked), the tf32 m16n8k8 mma.sync, whose fragments lie as DMMA's
// (gemm_dmma.cu runs both), or wgmma (m64nNk8); for 16-bit inputs mma.sync (a warp's m16n8k16)
// or wgmma (a warpgroup's m64nNk16, sm_90a only).
struct MmaChoice {
  std::string name;
  GemmKernel kernel;
};
const std::vector<MmaChoice>& mma_choices(const Precision& p) {
  static const std::vector<MmaChoice> f32 = {{"fma", GemmKernel::Simt}};
  static const std::vector<MmaChoice> f64 = {{"fma", GemmKernel::Simt}, {"dmma", GemmKernel::Dmma}};
  static const std::vector<MmaChoice> tf32 = {
      {"fma", GemmKernel::Simt}, {"tf32", GemmKernel::Dmma}, {"wgmma", GemmKernel::Wgmma}};
  static const std::vector<MmaChoice> sixteen_bit = {{"sync", GemmKernel::Tensor}, {"wgmma", GemmKernel::Wgmma}};
  if (gemm_16bit_inputs(p)) return sixteen_bit;
  if (p.input == Dtype::F64) return f64;
  if (p.input == Dtype::TF32) return tf32;
  return f32;
}
std::vector<std::string> mma_names(const Precision& p) {
  std::vector<std::string> names;
  for (const MmaChoice& m : mma_choices(p)) names.push_back(m.name);
  return names;
}
// The wgmma kernel's loaders (GemmLoader); the other kernels have only cp.async or registers.
const std::vector<std::string> kTensorLoaders = {"cp_async", "tma"};
const std::vector<std::string> kOneLoader = {"cp_async"};

// Static shared memory a CTA may declare (the SIMT kernel), and the dynamic shared memory an
// sm_90 CTA may opt into (the tensor kernel's ring of slices).
constexpr int64_t kStaticSharedBytes = 48 * 1024;
constexpr int64_t kDynamicSharedBytes = 232448;
// Past this many data registers (GemmConfig::data_registers) a thread spills on sm_90 with the
// addresses beside them: found by compiling samples of the space
// (tests/kernels/gemm_compile_test.cpp). The SIMT kernel prefetches its next slice into
// registers; the tensor kernel's slices go to shared memory by cp.async, so it holds only its
// accumulators and one k-step's fragments, and one CTA an SM leaves it 255 registers; wgmma
// reads both operands from shared memory and holds only the accumulators. DMMA holds two steps'
// fragments (the next loads while this one computes): a 32 x 64 warp tile (224) takes 254-255
// registers and compiles without spills in every layout from slices of 32, where slices of 16 and
// 64 x 32 warp tiles spill 4-60 bytes.
constexpr int64_t kMaxSimtDataRegisters = 80;
constexpr int64_t kMaxTensorDataRegisters = 160;
constexpr int64_t kMaxWgmmaDataRegisters = 128;
constexpr int64_t kMaxDmmaDataRegisters = 224;
// The partial tiles' workspace a configuration may ask for, and wgmma's staged operands.
constexpr double kMaxWorkspaceBytes = 1024.0 * 1024 * 1024;
constexpr double kMaxStagedBytes = 4.0 * 1024 * 1024 * 1024;

}  // namespace

bool gemm_16bit_inputs(const Precision& p) { return p.input == Dtype::BF16 || p.input == Dtype::F16; }

bool gemm_has_wgmma(const Precision& p) { return gemm_16bit_inputs(p) || p.input == Dtype::TF32; }

int64_t gemm_wgmma_bk(const Precision& p) { return 128 / static_cast<int64_t>(dtype_size(p.input)); }

std::vector<GemmKernel> gemm_kernels(const Precision& p) {
  std::vector<GemmKernel> kernels;
  for (const MmaChoice& m : mma_choices(p)) kernels.push_back(m.kernel);
  return kernels;
}

int64_t gemm_mma_index(GemmKernel kernel, const Precision& p) {
  const std::vector<MmaChoice>& choices = mma_choices(p);
  for (size_t i = 0; i < choices.size(); ++i)
    if (choices[i].kernel == kernel) return static_cast<int64_t>(i);
  throw std::invalid_argument("gemm has no such kernel in " + to_string(p));
}

GemmConfig GemmConfig::from(const Config& c, const Precision& p) {
  GemmConfig g;
  g.kernel = mma_choices(p).at(static_cast<size_t>(c.at("mma"))).kernel;
  g.decomposition = static_cast<GemmDecomposition>(c.at("decomposition"));
  g.bm = c.at("bm");
  g.bn = c.at("bn");
  g.bk = c.at("bk");
  g.tm = c.at("tm");
  g.tn = c.at("tn");
  g.stages = c.at("stages");
  g.split = c.at("split");
  g.sk_grid = c.at("sk_grid");
  g.raster = c.at("raster");
  g.loader = static_cast<GemmLoader>(c.at("loader"));
  g.cluster = c.at("cluster");
  return g;
}

int64_t GemmConfig::threads() const {
  const int64_t units = (bm / tm) * (bn / tn);
  if (kernel == GemmKernel::Simt) return units;
  return units * (kernel == GemmKernel::Wgmma ? 128 : 32);
}

int64_t GemmConfig::block_threads() const { return threads() + (loader == GemmLoader::Tma ? 32 : 0); }

bool GemmConfig::stores_by_tma(const GemmShape& s) const {
  return kernel == GemmKernel::Wgmma && loader == GemmLoader::Tma && decomposition != GemmDecomposition::SplitK &&
         s.n % 4 == 0;
}

int64_t GemmConfig::shared_bytes(const GemmShape& s, const Precision& p) const {
  const int64_t in = static_cast<int64_t>(dtype_size(p.input));
  if (kernel == GemmKernel::Simt) return stages * bk * (bm + 1 + bn + 1) * in;
  // 128-byte rows of k (one swizzle atom), and room to align the ring to 1024 bytes.
  // TMA: a full and an empty mbarrier a stage after the ring. Where it stores C by TMA, each
  // consumer warp's two boxes of C and the fix-up's two ints, and the kernel declares no static
  // shared memory, so the ring starts aligned without the room to align it.
  if (kernel == GemmKernel::Wgmma) {
    const int64_t ring = stages * (bm + bn) * 128;
    if (stores_by_tma(s)) return ring + threads() / 32 * kGemmTmaStoreBytes + 16 * stages + 8;
    return ring + 1024 + (loader == GemmLoader::Tma ? 16 * stages : 0);
  }
  // Each operand's slice as it lies in memory, its rows padded by 8 elements (gemm_tensor.cu); for
  // DMMA and tf32 (gemm_dmma.cu) by 4 elements along k, and along m or n by 32 bytes' worth.
  const int64_t k_pad = kernel == GemmKernel::Dmma ? 4 : 8;
  const int64_t mn_pad = kernel == GemmKernel::Dmma ? 32 / in : 8;
  const int64_t a_slice = s.a_transposed ? bk * (bm + mn_pad) : bm * (bk + k_pad);
  const int64_t b_slice = s.b_transposed ? bn * (bk + k_pad) : bk * (bn + mn_pad);
  return stages * (a_slice + b_slice) * in;
}

int64_t GemmConfig::resident_ctas(const GemmShape& s, const Precision& p) const {
  // An sm_90 SM: 2048 threads, 228 KiB of shared memory (1 KiB of it the driver's a CTA), 64 K registers.
  const int64_t threads = block_threads();
  const int64_t shared = shared_bytes(s, p) + 1024;
  // wgmma also holds a slice's descriptors for each m64 block: at 128 x 128, two blocks of 64
  // columns spilled under the cap for two CTAs where one block of 128 did not.
  const int64_t descriptors = kernel == GemmKernel::Wgmma ? 12 * (tm / 64) : 0;
  const int64_t registers = threads * (data_registers(p) + kGemmAddressRegisters + descriptors);
  return std::max<int64_t>(1, std::min({int64_t{32}, 2048 / threads, 233472 / shared, 65536 / registers}));
}

int64_t GemmConfig::accumulators_per_thread() const { return bm * bn / threads(); }

int64_t GemmConfig::data_registers(const Precision& p) const {
  // A warp's fragments of one k-step: A's four registers per 16 rows and B's two per 8 columns
  // (ptxas holds a whole k-step's B: a 32 x 128 warp tile of 128 accumulators spills in tn).
  if (kernel == GemmKernel::Tensor) return accumulators_per_thread() + tm / 16 * 4 + tn / 8 * 2;
  if (kernel == GemmKernel::Wgmma) return accumulators_per_thread();  // operands stay in shared memory
  if (kernel == GemmKernel::Dmma) {  // two m16n8k8 steps' fragments, A's four per 16 rows, B's two per 8 columns
    const int64_t words = static_cast<int64_t>(dtype_size(p.input)) / 4;  // 2 for f64, 1 for tf32
    return words * (accumulators_per_thread() + 2 * (tm / 16 * 4 + tn / 8 * 2));
  }
  const int64_t loads = (bm + bn) * bk / threads();
  const int64_t acc_words = static_cast<int64_t>(dtype_size(p.accumulate)) / 4;
  const int64_t in_words = static_cast<int64_t>(dtype_size(p.input)) / 4;
  // A prefetched element holds its value and, until it is stored, its bounds check and address.
  return accumulators_per_thread() * acc_words + 2 * loads * in_words;
}

ParameterSpace gemm_space(const GemmShape& shape, const Precision& p) {
  const bool tensor = gemm_16bit_inputs(p), f64 = p.input == Dtype::F64, tf32 = p.input == Dtype::TF32;
  const bool wgmma = gemm_has_wgmma(p);
  ParameterSpace s;
  s.params = {
      Parameter::enumeration("mma", mma_names(p)),
      Parameter::enumeration("decomposition", kDecompositions),
      Parameter::power_of_two("bm", tensor ? 32 : 16, wgmma ? 256 : 128),
      Parameter::power_of_two("bn", tensor ? 32 : 16, wgmma ? 256 : 128),
      Parameter::power_of_two("bk", tensor ? 16 : 8, tensor ? 64 : 32),
      // Simt: the thread's micro-tile (at most 8 x 8); sync, dmma, tf32: the warp's tile (m16n8k16
      // fragments with B by pairs; dmma, tf32: 16x8 blocks); wgmma: the warpgroup's (m64 blocks of n = tn).
      Parameter::power_of_two("tm", tensor ? 16 : 1, wgmma ? 128 : f64 ? 64 : 8),
      Parameter::power_of_two("tn", tensor ? 16 : 1, wgmma ? 256 : f64 ? 64 : 8),
      // Simt: 1 loads then computes, 2 prefetches the next slice into registers; on tensor
      // cores: the depth of the ring (slices in flight + the one computed), up to 7 where shared
      // memory holds them (a 64 x 128 wgmma tile in 6 stages ran 768^3 and 1000^3 7% faster than in 4).
      Parameter::int_range("stages", tensor ? 2 : 1, wgmma ? 7 : f64 ? 5 : 2),
      Parameter::power_of_two("split", 1, 16),
      Parameter::int_range("sk_grid", 4, 4 * kGemmSms, 4),
      Parameter::power_of_two("raster", 1, 8),
      // wgmma's ring filled by cp.async or by TMA, and (TMA) CTAs a cluster multicasting a slice.
      Parameter::enumeration("loader", wgmma ? kTensorLoaders : kOneLoader),
      Parameter::power_of_two("cluster", 1, wgmma ? 2 : 1),
  };
  auto config = [p](const Config& c) { return GemmConfig::from(c, p); };
  s.constraints = {
      {"wgmma reads a k-slice of one 128-byte swizzle atom (64 16-bit or 32 tf32 elements), m64 blocks of tn >= 64 "
       "a warpgroup, a ring of at least 3 stages (a slice in the tensor cores, one landing, one loading), and its "
       "operands' k-major copies (where the layout or k needs them: gemm_staging.h) take at most 4 GiB",
       [config, shape, p](const Config& c) {
         const GemmConfig g = config(c);
         if (g.kernel != GemmKernel::Wgmma) return true;
         const GemmStaging staged = GemmStaging::of(shape, g, p);
         return c.at("bk") == gemm_wgmma_bk(p) && c.at("tm") >= 64 && c.at("tn") >= 64 && c.at("stages") >= 3 &&
                (staged.a_elements() + staged.b_elements()) * static_cast<double>(dtype_size(p.input)) <=
                    kMaxStagedBytes;
       }},
      {"tma loads wgmma's ring only, its coordinates (batch * m, batch * n rows) count in 32 bits; a cluster "
       "of 2 needs tma and a data-parallel or persistent grid (its two CTAs then run the same k-slices of tiles "
       "that share an operand; Stream-K and split-K CTAs of one cluster would not); persistent needs tma (its "
       "producer runs ahead into the CTA's next tile)",
       [config, shape](const Config& c) {
         const GemmConfig g = config(c);
         if (g.loader == GemmLoader::Tma &&
             (g.kernel != GemmKernel::Wgmma || shape.batch * std::max(shape.m, shape.n) >= (int64_t{1} << 31)))
           return false;
         const bool whole_tiles = g.decomposition == GemmDecomposition::DataParallel ||
                                  g.decomposition == GemmDecomposition::Persistent;
         if (g.decomposition == GemmDecomposition::Persistent && g.loader != GemmLoader::Tma) return false;
         return g.cluster == 1 || (g.loader == GemmLoader::Tma && whole_tiles);
       }},
      {"simt: micro-tiles of at most 8 x 8 and 1 or 2 stages; dmma and tf32: warp tiles of 16 x 8 blocks, at most "
       "64 x 64, a ring of 2 or more stages, k-slices of 16 or 32 (an even count of 8-deep steps); dmma's one or two blocks tall, "
       "and slices of 32 for a 32 x 64 warp tile",
       [config, tf32](const Config& c) {
         const GemmConfig g = config(c);
         if (g.kernel == GemmKernel::Simt) return g.tm <= 8 && g.tn <= 8 && g.stages <= 2;
         if (g.kernel != GemmKernel::Dmma) return true;
         if (g.tm < 16 || g.tn < 8 || g.tm > 64 || g.tn > 64 || g.stages < 2 || g.bk < 16) return false;
         return tf32 || (g.tm <= 32 && (g.tm * g.tn < 32 * 64 || g.bk == 32));
       }},
      {"the micro-tile divides the block tile",
       [](const Config& c) { return c.at("bm") % c.at("tm") == 0 && c.at("bn") % c.at("tn") == 0; }},
      {"32 to 256 threads a block",
       [config](const Config& c) { return config(c).threads() >= 32 && config(c).threads() <= 256; }},
      {"every thread loads the same share of each slice",
       [config](const Config& c) {
         const GemmConfig g = config(c);
         return g.bm * g.bk % g.threads() == 0 && g.bk * g.bn % g.threads() == 0;
       }},
      {"the accumulators and the prefetched slices fit in registers",
       [config, p](const Config& c) {
         const GemmConfig g = config(c);
         return g.data_registers(p) <= (g.kernel == GemmKernel::Simt   ? kMaxSimtDataRegisters
                                        : g.kernel == GemmKernel::Wgmma ? kMaxWgmmaDataRegisters
                                        : g.kernel == GemmKernel::Dmma  ? kMaxDmmaDataRegisters
                                                                        : kMaxTensorDataRegisters);
       }},
      {"the slices fit in shared memory (48 KiB static for simt, 227 KiB dynamic on tensor cores)",
       [config, p, shape](const Config& c) {
         const GemmConfig g = config(c);
         return g.shared_bytes(shape, p) <= (g.kernel == GemmKernel::Simt ? kStaticSharedBytes : kDynamicSharedBytes);
       }},
      {"split only counts for split_k, sk_grid only for stream_k, hybrid and persistent",
       [](const Config& c) {
         const auto d = static_cast<GemmDecomposition>(c.at("decomposition"));
         const bool split = d == GemmDecomposition::SplitK;
         const bool gridded = d == GemmDecomposition::StreamK || d == GemmDecomposition::Hybrid || d == GemmDecomposition::Persistent;
         return (split ? c.at("split") > 1 : c.at("split") == 1) && (gridded || c.at("sk_grid") == kGemmSms);
       }},
      {"the MAC-loop iterations of all tiles count in 32 bits and the grid holds at most 2^20 CTAs (larger tiles for "
       "this problem)",
       [config, shape](const Config& c) {
         const GemmSchedule g = GemmSchedule::of(shape, config(c));
         return g.total_iterations() < (int64_t{1} << 31) && g.grid <= (int64_t{1} << 20);
       }},
      {"the partial tiles' workspace stays under 1 GiB",
       [config, shape, p](const Config& c) {
         const GemmConfig g = config(c);
         return GemmSchedule::of(shape, g).workspace_elements(g) * static_cast<double>(dtype_size(p.accumulate)) <=
                kMaxWorkspaceBytes;
       }},
  };
  return s;
}

}  // namespace ktune
