#pragma once
// CUDA source -> PTX, CUBIN and ptxas resource usage through NVRTC. Needs no GPU and no
// driver, so the model stage of the pipeline runs on any machine.
#include <string>

#include "gpu/compiled_kernel.h"

namespace ktune {

class NvrtcCompiler {
 public:
  // A compile error gives ok=false with NVRTC's log (which names the offending line);
  // only failures of NVRTC itself (out of memory, a broken install) throw.
  // `sm_XX` targets yield a CUBIN, `compute_XX` targets PTX only.
  CompiledKernel compile(const CompileRequest& request) const;

  // "major.minor" of the linked NVRTC, e.g. "13.0".
  static std::string version();

  // SHA-256 hex of everything that determines the result: the request and the compiler.
  static std::string cache_key(const CompileRequest& request);
};

}  // namespace ktune
