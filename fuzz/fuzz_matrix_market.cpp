// Matrix Market bytes (plain text or gzip, told apart by the magic bytes) into CSR.
// An InputError (LimitError, NotFoundError) is the answer to bad input; anything else
// escaping, a crash or a sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_limits.h"
#include "workload/input_error.h"
#include "workload/matrix_market.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const ktune::CsrF64 m = ktune::parse_matrix_market(bytes, ktune::fuzz_limits());
    if (m.row_ptr.size() != static_cast<size_t>(m.rows) + 1 || m.row_ptr.back() != m.nnz()) __builtin_trap();
  } catch (const ktune::InputError&) {
  }
  return 0;
}
