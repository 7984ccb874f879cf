#include "kernels/gemm/gemm_wgmma_call.h"

#include <sstream>
#include <stdexcept>

namespace ktune {

std::string wgmma_call_source(int64_t n, Dtype input) {
  if (n < 8 || n > 256 || n % 8 != 0) throw std::invalid_argument("wgmma has no m64n" + std::to_string(n));
  if (input != Dtype::BF16 && input != Dtype::F16 && input != Dtype::TF32)
    throw std::invalid_argument("wgmma takes bf16, f16 or tf32 inputs here");
  const bool tf32 = input == Dtype::TF32;
  const std::string type = input == Dtype::BF16 ? "bf16" : tf32 ? "tf32" : "f16";
  const int64_t registers = n / 2;
  std::ostringstream o;
  o << "__device__ __forceinline__ void kt_wgmma(float* d, unsigned long long da, unsigned long long db) {\n"
    << "  asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, %" << registers + 2 << ", 0;\\n"
    << "wgmma.mma_async.sync.aligned.m64n" << n << (tf32 ? "k8" : "k16") << ".f32." << type << "." << type << " {";
  for (int64_t i = 0; i < registers; ++i) o << (i ? ", " : "") << "%" << i;
  // Scale D by p (1: accumulate), A and B by 1; 16-bit inputs say neither is transposed (both
  // k-major), tf32 takes no such flags (k-major only).
  o << "}, %" << registers << ", %" << registers + 1 << (tf32 ? ", p, 1, 1;" : ", p, 1, 1, 0, 0;")
    << "\\n}\\n\"\n      : ";
  for (int64_t i = 0; i < registers; ++i) o << (i ? ", " : "") << "\"+f\"(d[" << i << "])";
  o << "\n      : \"l\"(da), \"l\"(db), \"r\"(1));\n}\n";
  return o.str();
}

}  // namespace ktune
