#!/usr/bin/env bash
# Builds Gunrock essentials' bfs, sssp and pr for sm_90 from the offline kit in
# ../shared/anchors/gunrock (or KIT=...), with hip_device_compile.h pre-included: the kit's
# prebuilt binaries reach only their source (bench/NOTES.md, "Gunrock"). Output in .gunrock/bin
# at the checkout's root (ignored); scripts/device-bundle carries it. Needs nvcc 13, cmake, ninja.
# Usage: bench/gunrock/build.sh [JOBS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/bench/gunrock
kit=${KIT:-$root/../shared/anchors/gunrock}
jobs=${1:-$(nproc)}
work=$root/.gunrock
nvcc=/usr/local/cuda/bin/nvcc
[ -f "$kit/src/gunrock-01f125c8.tar.gz" ] || { echo "no Gunrock kit at $kit" >&2; exit 1; }
rm -rf "$work/src" && mkdir -p "$work/src"
tar -C "$work/src" -xzf "$kit/src/gunrock-01f125c8.tar.gz"
tar -C "$work/src" -xzf "$kit/src/deps.tar.gz"
cmake -S "$work/src/gunrock" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DESSENTIALS_NVIDIA_BACKEND=ON -DESSENTIALS_AMD_BACKEND=OFF \
  -DESSENTIALS_BUILD_TESTS=OFF -DESSENTIALS_BUILD_BENCHMARKS=OFF \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_COMPILER=$nvcc \
  -DCMAKE_CUDA_FLAGS="--pre-include=$here/hip_device_compile.h" \
  -DFETCHCONTENT_FULLY_DISCONNECTED=ON \
  -DFETCHCONTENT_SOURCE_DIR_CCCL=/usr/local/cuda/include/cccl \
  -DFETCHCONTENT_SOURCE_DIR_CXXOPTS="$work/src/deps/cxxopts" \
  -DFETCHCONTENT_SOURCE_DIR_JSON="$work/src/deps/json" \
  -DFETCHCONTENT_SOURCE_DIR_CMAKE_MODULES="$work/src/deps/cmake_modules"
ninja -C "$work/build" -j"$jobs" bfs sssp pr
mkdir -p "$work/bin"
for b in bfs sssp pr; do strip -o "$work/bin/$b" "$work/build/bin/$b"; done
echo "built: $work/bin"
