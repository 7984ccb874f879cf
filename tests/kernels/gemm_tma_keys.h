#pragma once
// GEMM configurations for the GPU engineer's family_bench --config runs of the TMA loader
// (bench/NOTES.md, "GEMM on the H100"): at 4096^3 and 8192^3, and at 384 x 384 x 16384. The
// CPU tests keep them valid keys of their shapes' spaces; the device test verifies and times them.
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
    "split=1;stages=4;tm=64;tn=256"};
inline const std::vector<std::string> kGemmTmaSkinnyKeys = {
    "bk=64;bm=64;bn=64;cluster=1;decomposition=stream_k;loader=tma;mma=wgmma;raster=1;sk_grid=132;split=1;"
    "stages=5;tm=64;tn=64",
    "bk=64;bm=128;bn=128;cluster=1;decomposition=stream_k;loader=tma;mma=wgmma;raster=1;sk_grid=132;split=1;"
    "stages=5;tm=64;tn=128",
    "bk=64;bm=128;bn=128;cluster=1;decomposition=split_k;loader=tma;mma=wgmma;raster=1;sk_grid=132;split=16;"
    "stages=5;tm=64;tn=128",
    "bk=64;bm=64;bn=64;cluster=1;decomposition=stream_k;loader=cp_async;mma=wgmma;raster=1;sk_grid=132;split=1;"
    "stages=5;tm=64;tn=64"};

}  // namespace ktune
