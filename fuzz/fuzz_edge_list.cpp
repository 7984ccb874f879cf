// Edge lists (plain text or gzip) into CSR; the first byte chooses whether to symmetrize.
// An InputError is the answer to bad input; anything else escaping is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_limits.h"
#include "workload/edge_list.h"
#include "workload/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool symmetrize = data[0] & 1;
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    const ktune::CsrF64 m = ktune::parse_edge_list(bytes, ktune::fuzz_limits(), symmetrize);
    if (m.rows != m.cols || m.row_ptr.back() != m.nnz()) __builtin_trap();
  } catch (const ktune::InputError&) {
  }
  return 0;
}
