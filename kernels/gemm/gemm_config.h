#pragma once
// One GEMM configuration: the kernel (SIMT FMA for f32, and for f64 and tf32 beside the m16n8k8
// mma.sync of DMMA or tf32; for bf16/f16 tensor cores, by warp through mma.sync or by warpgroup through
// sm_90a's wgmma), its block tile, its thread or warp tile and pipeline depth, and the decomposition
// of the MAC-loop iterations over CTAs (gemm_schedule.h): data-parallel, fixed split-K,
// Stream-K, or the two-tile Stream-K + data-parallel hybrid, with the Stream-K grid size; or
// persistent: data-parallel tiles taken in turn by sk_grid CTAs, so that (TMA loader) the
// producer loads a tile's first slices while the consumers store the previous one.
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/gemm/gemm_shape.h"
#include "kernels/parameter_space.h"

namespace ktune {

enum class GemmDecomposition { DataParallel, SplitK, StreamK, Hybrid, Persistent };
// Dmma: the m16n8k8 mma.sync whose fragments a lane reads from shared memory one element each
// (gemm_dmma.cu), f64's DMMA and tf32's alike.
enum class GemmKernel { Simt, Tensor, Wgmma, Dmma };
// How the wgmma kernel fills its ring: every thread's cp.async, or TMA from one producer thread
// (gemm_wgmma_tma.cu), which alone can multicast a slice to a cluster of CTAs.
enum class GemmLoader { CpAsync, Tma };

// The SMs a Stream-K grid is sized against: H100 SXM and H200 both have 132. A grid larger than
// the device's is still correct (no CTA waits on another), only slower.
constexpr int64_t kGemmSms = 132;
// What a consumer warp of the TMA kernel stages C's tile through on its way out
// (GemmConfig::stores_by_tma): two 16 x 16 boxes of f32, one written while the TMA unit stores the other.
constexpr int64_t kGemmTmaStoreBytes = 2 * 16 * 16 * 4;
// Registers a thread holds beside its data (GemmConfig::data_registers): addresses, indices,
// barrier state.
constexpr int64_t kGemmAddressRegisters = 32;

struct GemmConfig {
  GemmKernel kernel = GemmKernel::Simt;
  GemmDecomposition decomposition = GemmDecomposition::DataParallel;
  int64_t bm = 64, bn = 64, bk = 16;
  int64_t tm = 4, tn = 4;  // Simt: a thread's micro-tile; Tensor, Dmma (f64 or tf32): a warp's tile; Wgmma: a warpgroup's
  int64_t stages = 2;      // Simt: 1 load then compute, 2 prefetch; Tensor: slices in the cp.async ring
  int64_t split = 1;       // split-K factor
  int64_t sk_grid = kGemmSms;  // Stream-K CTAs; persistent: CTAs launched
  int64_t raster = 1;          // tile-rows a rasterisation group (1: row-major tile order)
  GemmLoader loader = GemmLoader::CpAsync;
  int64_t cluster = 1;  // TMA: CTAs a cluster sharing one operand's slices by multicast

  // The operand a cluster's CTAs share (gemm_schedule.h pairs neighbouring tiles): 1 A (tiles
  // of one tile-row, row-major order), 2 B (of one tile-column, grouped order); 0 without one.
  int64_t shared_operand() const { return cluster == 1 ? 0 : raster == 1 ? 1 : 2; }

  static GemmConfig from(const Config& c, const Precision& p);
  // Whether the TMA kernel stores C's tiles through shared memory by TMA (gemm_wgmma_tma.cu), so
  // that the warpgroups go on to their next tile while the stores drain: every whole-C
  // decomposition (split-K's copies are summed by a launch of its own) where C's rows of f32
  // start 16-byte aligned, as a tensor map needs.
  bool stores_by_tma(const GemmShape& s) const;
  int64_t threads() const;        // those computing the tile
  int64_t block_threads() const;  // and the TMA loader's producer warp beside them
  int64_t shared_bytes(const GemmShape& s, const Precision& p) const;
  int64_t accumulators_per_thread() const;  // elements of C a thread holds
  // 32-bit registers a thread holds its accumulators and its prefetched slice elements (simt)
  // or one k-step's fragments (tensor) in, roughly: what spills first.
  int64_t data_registers(const Precision& p) const;
  // CTAs an SM holds at once by its threads, shared memory and (roughly: data_registers and
  // the addresses beside them) registers. The wgmma kernels ask ptxas for it
  // (__launch_bounds__), which caps their registers to match: uncapped, a 128 x 128 tile took
  // 157 registers and ran one CTA an SM where its ring left room for two.
  int64_t resident_ctas(const GemmShape& s, const Precision& p) const;
};

// Whether `p` takes 16-bit inputs (bf16, f16): the m16n8k16 mma.sync kernel's precisions.
bool gemm_16bit_inputs(const Precision& p);
// Whether the wgmma kernels compute in `p` (bf16, f16, tf32), and the k-slice they read: one
// 128-byte swizzle atom of k (64 16-bit elements, 32 tf32).
bool gemm_has_wgmma(const Precision& p);
int64_t gemm_wgmma_bk(const Precision& p);
// The kernels the space's "mma" parameter picks among in `p`, in its order, and the value that
// picks `kernel`.
std::vector<GemmKernel> gemm_kernels(const Precision& p);
int64_t gemm_mma_index(GemmKernel kernel, const Precision& p);
ParameterSpace gemm_space(const GemmShape& s, const Precision& p);

}  // namespace ktune
