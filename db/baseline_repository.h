#pragma once
// Vendor library timings (cuSPARSE, cuBLAS) of a workload on a device: the bar a tuned kernel
// must clear.
#include <cstdint>
#include <string>
#include <vector>

#include "db/database.h"
#include "db/records.h"

namespace ktune {

class BaselineRepository {
 public:
  explicit BaselineRepository(Database& db) : db_(db) {}

  // Returns the new baseline's id.
  int64_t add(const BaselineRecord& baseline);
  // Baselines of one workload, device, kernel and dtype, fastest first.
  std::vector<BaselineRecord> list_for(int64_t workload_id, int64_t device_id,
                                       const std::string& kernel, const std::string& dtype);

 private:
  Database& db_;
};

}  // namespace ktune
