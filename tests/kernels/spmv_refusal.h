#pragma once
// Whether the spmv family refuses `config` on `m`: a sell or sell16 configuration on a matrix
// whose SELL-32 form it does not take, or adaptive_hot on one with no column used twice. Tests
// that walk the whole space expect InputError there instead of a plan.
#include "kernels/spmv/spmv_family.h"

namespace ktune::testing_support {

inline bool spmv_refused(const Config& config, const CsrF64& m) {
  return !spmv_refusal(m, SpmvConfig::from(config)).empty();
}

}  // namespace ktune::testing_support
