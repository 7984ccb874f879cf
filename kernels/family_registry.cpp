#include "kernels/kernel_family.h"
#include "kernels/spmv/spmv_family.h"

namespace ktune {

const std::vector<std::unique_ptr<KernelFamily>>& all_families() {
  static const std::vector<std::unique_ptr<KernelFamily>> families = [] {
    std::vector<std::unique_ptr<KernelFamily>> list;
    list.push_back(std::make_unique<SpmvFamily>());
    return list;
  }();
  return families;
}

const KernelFamily* find_family(const std::string& name) {
  for (const auto& family : all_families()) {
    if (family->name() == name) return family.get();
  }
  return nullptr;
}

}  // namespace ktune
