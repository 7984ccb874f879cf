#pragma once
// The device side of a launch plan in the caller's process: the plan's own inputs (a SELL
// form, row blocks, hot columns...) uploaded once, its scratch allocated once, and the
// caller's buffers (x and y, the matrix when it lives on the device) bound by name at each
// launch, in a BufferTable that gpu/plan_runner.h and the vendor calls read.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gpu/plan_runner.h"
#include "kernels/kernel_family.h"

namespace ktune {

// The CSR arrays as every sparse family names them: the caller's matrix.
inline const std::set<std::string>& csr_array_names() {
  static const std::set<std::string> names = {"row_ptr", "col_idx", "values"};
  return names;
}

// The buffers of `plan` the caller provides at each launch: the data the family's vendor
// calls take by role and its outputs (x and y for SpMV, b and c for SpMM), less the matrix's
// CSR arrays, which the client holds.
std::vector<std::string> caller_operands(const KernelFamily& family, const Workload& w, const Problem& p,
                                         const LaunchPlan& plan);

class PlanBuffers {
 public:
  // Uploads every input of `plan` that is not in `from_caller` and allocates (zeroed) its
  // other buffers; `plan` must outlive this.
  PlanBuffers(const CudaDriver& cu, const LaunchPlan& plan, std::set<std::string> from_caller);

  // Points the caller's buffers at `addresses`; true when any changed since the last bind
  // (launches packed with the old ones must be packed again). Throws LaunchError naming a
  // buffer the caller did not give, or one the plan does not take.
  bool bind(const std::map<std::string, CUdeviceptr>& addresses);

  const BufferTable& table() const { return table_; }

 private:
  std::set<std::string> from_caller_;
  BufferTable table_;
};

}  // namespace ktune
