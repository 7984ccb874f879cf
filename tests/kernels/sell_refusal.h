#pragma once
// Whether the spmv family refuses `config` on `m`: a sell configuration on a matrix whose SELL-32
// form pads too much. Tests that walk the whole space expect InputError there instead of a plan.
#include "kernels/spmv/spmv_config.h"
#include "kernels/spmv/spmv_sell_format.h"

namespace ktune::testing_support {

inline bool sell_refused(const Config& config, const CsrF64& m) {
  return SpmvConfig::from(config).schedule == SpmvSchedule::Sell && !sell_refusal(m, sell_shape(m)).empty();
}

}  // namespace ktune::testing_support
