#pragma once
// GEMM configurations for the GPU engineer's family_bench --config runs of the TMA loader
// (bench/NOTES.md, "GEMM on the H100"): at 4096^3 and 8192^3, and at 384 x 384 x 16384. The
// CPU tests keep them valid keys of their shapes' spaces; the device test verifies and times them.
// Then the TMA configurations and shapes GemmOnDevice.TmaConfigurations* verifies, built here by
// parameter name and value name (space.from_json), never by a choice's index, so that the CPU tests
// (gemm_tma_test.cpp, gemm_compile_test.cpp) check and compile exactly what the GPU test runs.
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ktune {

inline const std::vector<std::string> kGemmTmaSquareKeys = {
    "bk=64;bm=128;bn=256;cluster=1;decomposition=data_parallel;loader=tma;mma=wgmma;raster=1;sk_grid=132;split=1;"
    "stages=4;tm=64;tn=256",
    "bk=64;bm=128;bn=256;cluster=2;decomposition=data_parallel;loader=tma;mma=wgmma;raster=1;sk_grid=132;split=1;"
    "stages=4;tm=64;tn=256",
    "bk=64;bm=128;bn=256;cluster=2;decomposition=data_parallel;loader=tma;mma=wgmma;raster=8;sk_grid=132;split=1;"
    "stages=4;tm=64;tn=256",
    "bk=64;bm=256;bn=128;cluster=2;decomposition=data_parallel;loader=tma;mma=wgmma;raster=1;sk_grid=132;split=1;"
    "stages=4;tm=128;tn=128",
    "bk=64;bm=128;bn=256;cluster=1;decomposition=stream_k;loader=tma;mma=wgmma;raster=4;sk_grid=132;split=1;"
    "stages=4;tm=64;tn=256",
    "bk=64;bm=128;bn=256;cluster=1;decomposition=data_parallel;loader=cp_async;mma=wgmma;raster=1;sk_grid=132;"
    "split=1;stages=4;tm=64;tn=256",
    // Whether Stream-K's loss at 8192^3 is the decomposition's (L2: gemm_estimate.cpp), not TMA's:
    // cp.async Stream-K, and the hybrid whose Stream-K CTAs take under two tiles each.
    "bk=64;bm=128;bn=256;cluster=1;decomposition=stream_k;loader=cp_async;mma=wgmma;raster=4;sk_grid=132;split=1;"
    "stages=4;tm=64;tn=256",
    "bk=64;bm=128;bn=256;cluster=1;decomposition=hybrid;loader=tma;mma=wgmma;raster=4;sk_grid=132;split=1;"
    "stages=4;tm=64;tn=256",
    // Persistent: a CTA an SM taking the data-parallel tiles in turn, its ring running on across
    // them (the next tile's slices load during the last one's epilogue).
    "bk=64;bm=128;bn=256;cluster=1;decomposition=persistent;loader=tma;mma=wgmma;raster=8;sk_grid=132;split=1;"
    "stages=4;tm=64;tn=256",
    "bk=64;bm=128;bn=256;cluster=2;decomposition=persistent;loader=tma;mma=wgmma;raster=8;sk_grid=132;split=1;"
    "stages=4;tm=64;tn=256"};
inline const std::vector<std::string> kGemmTmaSkinnyKeys = {
    "bk=64;bm=64;bn=64;cluster=1;decomposition=stream_k;loader=tma;mma=wgmma;raster=1;sk_grid=132;split=1;"
    "stages=5;tm=64;tn=64",
    "bk=64;bm=128;bn=128;cluster=1;decomposition=stream_k;loader=tma;mma=wgmma;raster=1;sk_grid=132;split=1;"
    "stages=5;tm=64;tn=128",
    "bk=64;bm=128;bn=128;cluster=1;decomposition=split_k;loader=tma;mma=wgmma;raster=1;sk_grid=132;split=16;"
    "stages=5;tm=64;tn=128",
    "bk=64;bm=64;bn=64;cluster=1;decomposition=stream_k;loader=cp_async;mma=wgmma;raster=1;sk_grid=132;split=1;"
    "stages=5;tm=64;tn=64"};

// wgmma fed by TMA, by name: a tile of bm x bn in warpgroup tiles of tm x tn, 64-deep slices.
inline nlohmann::json gemm_tma_parameters(const char* decomposition, int64_t bm, int64_t bn, int64_t tm, int64_t tn,
                                          int64_t stages, int64_t split, int64_t sk_grid, int64_t raster,
                                          int64_t cluster) {
  return {{"mma", "wgmma"},   {"loader", "tma"},   {"decomposition", decomposition}, {"bm", bm},
          {"bn", bn},         {"bk", 64},          {"tm", tm},                       {"tn", tn},
          {"stages", stages}, {"split", split},    {"sk_grid", sk_grid},             {"raster", raster},
          {"cluster", cluster}};
}

// Every decomposition in CTAs of one; data-parallel and persistent in clusters of 2 sharing A
// (row-major tile order, raster 1) or B (grouped order, raster 2 and 4), one and two warpgroups,
// boxes of 32 to 128 rows; persistent grids of fewer CTAs than tiles (each takes several).
inline std::vector<nlohmann::json> gemm_tma_verify_parameters() {
  return {gemm_tma_parameters("data_parallel", 128, 256, 64, 256, 4, 1, 132, 1, 1),
          gemm_tma_parameters("data_parallel", 128, 128, 128, 128, 3, 1, 132, 2, 1),
          gemm_tma_parameters("split_k", 64, 64, 64, 64, 5, 4, 132, 1, 1),
          gemm_tma_parameters("stream_k", 128, 128, 64, 128, 4, 1, 8, 1, 1),
          gemm_tma_parameters("hybrid", 256, 128, 128, 128, 3, 1, 4, 2, 1),
          gemm_tma_parameters("stream_k", 128, 256, 64, 256, 4, 1, 132, 4, 1),
          gemm_tma_parameters("data_parallel", 128, 256, 64, 256, 4, 1, 132, 1, 2),
          gemm_tma_parameters("data_parallel", 128, 128, 128, 128, 3, 1, 132, 2, 2),
          gemm_tma_parameters("data_parallel", 64, 128, 64, 64, 5, 1, 132, 1, 2),
          gemm_tma_parameters("data_parallel", 256, 128, 128, 128, 3, 1, 132, 4, 2),
          gemm_tma_parameters("persistent", 128, 128, 64, 128, 4, 1, 8, 1, 1),
          gemm_tma_parameters("persistent", 64, 128, 64, 64, 5, 1, 4, 2, 2),
          gemm_tma_parameters("persistent", 128, 256, 64, 256, 4, 1, 132, 1, 2)};
}

// The shapes (m, n, k, batch; layout nt) they are verified on: square and aligned, ragged in m, n
// and k with k past the last 64-deep slice (TMA's zero fill), batches stacked in one tensor map,
// and an odd count of tile-columns and tile-rows (a cluster of 2's padding tile).
inline const std::vector<std::array<int64_t, 4>> kGemmTmaVerifyShapes = {
    {512, 512, 512, 1}, {200, 136, 72, 2}, {77, 45, 56, 1}, {300, 520, 1000, 3}, {384, 640, 4104, 1}};

}  // namespace ktune
