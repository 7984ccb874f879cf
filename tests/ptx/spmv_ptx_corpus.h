#pragma once
// The PTX of every SpMV configuration, fp32 and fp64, as NVRTC emits it (compute_90: PTX
// only, no ptxas). Shared by the ptx and interp suites: compiled once per process, on the
// thread pool, and kept on disk in the build tree keyed by NvrtcCompiler::cache_key, so a
// second suite (or a re-run) reads the files instead of compiling for half a minute again.
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "gpu/nvrtc_compiler.h"
#include "gpu/thread_pool.h"
#include "kernels/spmv/spmv_family.h"

namespace ktune::testing_support {

struct SpmvPtx {
  Config config;
  Dtype dtype = Dtype::F32;
  std::string name;   // "schedule=row block=128 ... f32"
  std::string entry;  // the kernel's name
  std::string ptx;
};

inline std::string compile_to_ptx_cached(const CompileRequest& request) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(KTUNE_BINARY_DIR) / "test-data" / "ptx-cache";
  const fs::path file = dir / (NvrtcCompiler::cache_key(request) + ".ptx");
  if (std::ifstream in{file, std::ios::binary}) {
    std::stringstream text;
    text << in.rdbuf();
    if (!text.str().empty()) return text.str();
  }
  const CompiledKernel k = NvrtcCompiler().compile(request);
  if (!k.ok) throw std::runtime_error("NVRTC failed:\n" + k.log);
  fs::create_directories(dir);
  // Written under a name unique to this process and thread, then renamed: suites running at
  // once (which compile the same source to the same text) never read half a file or rename
  // each other's temporary away.
  std::ostringstream unique;
  unique << ::getpid() << "." << std::this_thread::get_id();
  const fs::path tmp = file.string() + "." + unique.str() + ".tmp";
  {
    std::ofstream out{tmp, std::ios::binary};
    out << k.ptx;
  }
  fs::rename(tmp, file);
  return k.ptx;
}

inline const std::vector<SpmvPtx>& spmv_ptx_corpus() {
  static const std::vector<SpmvPtx> corpus = [] {
    const SpmvFamily family;
    ThreadPool pool;
    std::vector<SpmvPtx> out;
    std::vector<std::future<std::string>> ptx;
    for (const Config& config : family.space({}).enumerate()) {
      for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
        KernelSource s = family.source(Problem::of(dtype), config);
        SpmvPtx item{config, dtype, family.space({}).canonical(config) + " " + to_string(dtype),
                     s.entries.at(0), {}};
        CompileRequest request{std::move(s.code), std::move(s.entries), std::move(s.options),
                               "compute_90"};
        ptx.push_back(pool.submit([request] { return compile_to_ptx_cached(request); }));
        out.push_back(std::move(item));
      }
    }
    for (size_t i = 0; i < out.size(); ++i) out[i].ptx = ptx[i].get();
    return out;
  }();
  return corpus;
}

}  // namespace ktune::testing_support
