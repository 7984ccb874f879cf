#include "server/legacy_answers.h"

#include <string_view>
#include <vector>

#include "db/device_repository.h"
#include "db/result_repository.h"
#include "kernel_templates.h"
#include "kernels/kernel_family.h"
#include "workload/sha256.h"

namespace ktune {
namespace {

// The templates the old fingerprint hashed, in its order (every .cu and .cuh of kernels/ then,
// sorted by path), and the families whose answers it covered.
std::string legacy_templates_hash() {
  const std::vector<std::string_view> all = {templates::k_calibration_benchmarks_cu, templates::k_spmv_adaptive_cu,
                                             templates::k_spmv_common_cuh,           templates::k_spmv_hot_x_cu,
                                             templates::k_spmv_merge_cu,             templates::k_spmv_row_cu,
                                             templates::k_spmv_sell_cu,              templates::k_spmv_subwarp_cu,
                                             templates::k_spmv_zero_rows_cu};
  Sha256 h;
  for (std::string_view t : all) {
    h.update(t.data(), t.size());
    h.update("\0", 1);
  }
  return h.hex_digest();
}

constexpr const char* kLegacyFamilies[] = {"spmv"};

}  // namespace

std::string legacy_fingerprint(const DeviceInfo& device, const std::string& nvrtc_version) {
  return device_fingerprint(device, nvrtc_version, legacy_templates_hash());
}

int adopt_legacy_answers(Database& db, const DeviceInfo& device, const std::string& nvrtc_version, int64_t device_id) {
  const std::string legacy = legacy_fingerprint(device, nvrtc_version);
  int moved = 0;
  for (const DeviceRecord& d : DeviceRepository(db).list()) {
    if (d.fingerprint != legacy || d.id == device_id) continue;
    for (const char* name : kLegacyFamilies)
      if (const KernelFamily* family = find_family(name))
        moved += ResultRepository(db).adopt_legacy(name, d.id, device_id, family_version(*family));
  }
  return moved;
}

}  // namespace ktune
