#pragma once
// The components one ktuned wires together, in construction order.
#include <atomic>
#include <map>
#include <memory>
#include <mutex>

#include "db/database.h"
#include "gpu/compile_cache.h"
#include "gpu/device_info.h"
#include "gpu/measurer.h"
#include "gpu/nvrtc_compiler.h"
#include "gpu/thread_pool.h"
#include "search/tuner.h"
#include "server/config_lookup.h"
#include "server/db_compile_store.h"
#include "server/job_manager.h"
#include "server/metrics.h"
#include "server/server_config.h"
#include "server/workload_resolver.h"

namespace ktune {

struct ServiceParts {
  explicit ServiceParts(const ServerConfig& config);

  // What this daemon's answers for `problem` of `family` are stored and found under.
  AnswerKey answer_key(const KernelFamily& family, const Problem& problem) const {
    return {family.name(), problem.key(), to_string(problem.precision), device_fingerprint, family_version(family)};
  }

  ServerConfig config;
  Metrics metrics;
  Database db;
  NvrtcCompiler compiler;
  DbCompileStore compile_store;
  CompileCache compile_cache;
  ThreadPool compile_pool;
  std::unique_ptr<Measurer> measurer;  // null when the daemon has no GPU
  DeviceInfo device;
  std::string device_fingerprint;
  int64_t device_id = 0;
  GpuSpec gpu;
  std::unique_ptr<Tuner> tuner;
  WorkloadResolver resolver;
  ConfigLookup lookup;
  std::unique_ptr<JobManager> jobs;
  // Default answers by (kernel, dtype, device): built once, since a lookup that finds nothing
  // would otherwise enumerate the space and specialise a source on the request path.
  std::mutex defaults_mutex;
  std::map<std::string, nlohmann::json> defaults;
  std::mutex calibration_mutex;  // one calibration at a time (server/device_calibration.cpp)
  std::atomic<int> waiters{0};   // tune requests holding their connection for the answer
};

}  // namespace ktune
