#pragma once
// The daemon's side of measurement. CUDA errors are sticky: after an illegal address every
// call in that process fails. So kernels run in a worker process (ktune-measure-worker,
// gpu/worker_session.h) that the Measurer owns: a kernel that faults or hangs costs its
// configuration a Fault or Timeout, the worker is replaced, and the next request goes on.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/compiled_kernel.h"
#include "gpu/device_info.h"
#include "gpu/measurement.h"
#include "kernels/kernel_family.h"

namespace ktune {

class WorkerProcess;
struct MeasureRequest;
struct WorkerMessage;
class WorkerError;

// A reference with the content key of each output's values computed once: a tune checks
// hundreds of configurations against one reference, and hashing one of hundreds of megabytes
// at every measurement cost more than the measurement. Implicit from a Reference, for the
// callers that measure once.
class PreparedReference {
 public:
  PreparedReference(Reference values);  // NOLINT(google-explicit-constructor)
  const Reference& values() const { return values_; }
  const std::string& key(const std::string& output) const { return keys_.at(output); }

 private:
  Reference values_;
  std::map<std::string, std::string> keys_;
};

// ktune-measure-worker in the directory of the running executable.
std::string default_worker_path();

// Thread safe: requests are served one at a time by the one worker.
class Measurer {
 public:
  explicit Measurer(std::string worker_path);
  ~Measurer();
  Measurer(const Measurer&) = delete;
  Measurer& operator=(const Measurer&) = delete;

  // Whether a GPU is there to measure on; asks the worker once. False without a driver, a
  // device or the worker program (device().why_absent says which).
  bool available();
  DeviceInfo device();

  // Runs `plan` with `kernel`: inputs (buffers with bytes) are sent to the worker once and
  // kept there by content hash, so kernels must not write them; the outputs are poisoned
  // with NaN, the plan (its program, when it has one) runs once and every output is checked
  // against `reference` by the plan's family (KernelFamily::verify, in the worker), and only
  // then is the whole plan timed (gpu/measurement_harness.h). A worker that dies gives Fault,
  // one silent for options.kernel_timeout_s gives Timeout; either way the next request starts
  // a fresh worker. Throws InputError for options out of range.
  Measurement measure(const CompiledKernel& kernel, const LaunchPlan& plan, const PreparedReference& reference,
                      const MeasureOptions& options);

  // A vendor library call (gpu/vendor_calls.h) on the plan's buffers, verified and timed the
  // same way.
  Measurement measure_vendor(const LaunchPlan& plan, const VendorCall& call, const PreparedReference& reference,
                             const MeasureOptions& options);

  // Device-to-device copy of `bytes`, counting bytes read and written, in GB/s. Throws
  // std::runtime_error without a GPU, InputError for zero bytes.
  double device_copy_bandwidth_gbs(size_t bytes);

 private:
  using Contents = std::map<std::string, std::string_view>;  // content key -> bytes

  const DeviceInfo& probe();
  void start_worker();
  Measurement exchange(MeasureRequest& request, const Contents& contents, std::string_view cubin);
  Measurement exchange_once(const MeasureRequest& request, const Contents& contents, std::string_view cubin,
                            bool* sent_everything);
  WorkerMessage await_reply(double timeout_s);
  // Ends the worker after a broken exchange and says what happened as a Fault or Timeout.
  Measurement abandon_worker(const WorkerError& e);
  void drop_worker_mid_exchange();

  std::mutex mutex_;
  std::string worker_path_;
  std::unique_ptr<WorkerProcess> worker_;
  std::optional<DeviceInfo> device_;
};

}  // namespace ktune
