#pragma once
// ktune's C++ client that launches (clients/cpp/README.md): the tuned kernel for your matrix,
// run on your buffers and stream. open() computes the matrix's signature here, with the
// daemon's own code, and asks ktuned for the stored answer: the exact one, else the nearest
// neighbour's, else the family's default while an asynchronous tune of the matrix runs.
// launch() compiles the answer with NVRTC (once per source and device: the binary is cached
// on disk, so a second process starts without NVRTC), builds the configuration's own inputs
// (row blocks, hot columns, a SELL form...) with the family's prepare() and runs the plan.
// A daemon that cannot be reached costs nothing but a notice: the family's vendor library
// (cuSPARSE, cuBLAS) runs instead. The CUDA driver is loaded at run time, so a program linking
// this starts anywhere; launching without a GPU throws LaunchError.
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "workload/csr_matrix.h"

struct CUstream_st;  // CUstream and cudaStream_t are both CUstream_st*

namespace ktune {

// A device address: a CUdeviceptr, or a cudaMalloc pointer cast to one.
using DeviceAddress = unsigned long long;

// What to run: a kernel family of `GET /v1/kernels`, its dtype and its problem parameters.
struct KernelRequest {
  std::string kernel = "spmv";
  std::string dtype = "f32";                          // or "bf16:f32:bf16" where the family takes it
  nlohmann::json problem = nlohmann::json::object();  // e.g. SpMM's {"k": 64}; defaults filled in
};

struct ClientOptions {
  std::string server;     // "host:port"; empty: $KTUNE_SERVER, else 127.0.0.1:8077
  std::string token;      // empty: $KTUNE_TOKEN
  std::string cache_dir;  // compiled kernels; empty: $KTUNE_CACHE_DIR, $XDG_CACHE_HOME/ktune, ~/.cache/ktune
  bool tune_when_missing = true;                           // submit a tune when nothing is stored
  nlohmann::json tune_budget = nlohmann::json::object();  // the tune's "budget" (docs/api.md)
  int device = 0;                                          // CUDA device ordinal
  // Told once per process of what the caller should know: the daemon is unreachable (the
  // vendor library runs instead), a tune was submitted, an answer could not be used.
  // Default: a line on stderr.
  std::function<void(const std::string&)> notice;
};

// The matrix's arrays on the device: int32 indices, values in the request's input dtype.
struct DeviceCsr {
  DeviceAddress row_ptr = 0, col_idx = 0, values = 0;
};

// launch() could not run: no GPU or driver, a missing operand, a CUDA error.
class LaunchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class TunedKernel {
 public:
  // The matrix on the host: the client uploads what the configuration reads.
  static TunedKernel open(const KernelRequest& request, CsrF64 matrix, const ClientOptions& options = {});
  // The matrix on the device, its structure (row_ptr, col_idx; values may be empty) on the
  // host: the configuration's other inputs are built from them (the values are read back
  // once when it reads a form of its own, such as SELL).
  static TunedKernel open(const KernelRequest& request, CsrF64 structure, const DeviceCsr& on_device,
                          const ClientOptions& options = {});
  // A family whose problem is its shape (GEMM, a contraction: `problem` says it all), on the
  // caller's operands ("a", "b", "c"...). std::invalid_argument for a family that takes a matrix.
  static TunedKernel open(const KernelRequest& request, const ClientOptions& options = {});
  // An answer in hand (a tune's, or one saved earlier): no daemon is asked.
  static TunedKernel with_answer(const KernelRequest& request, nlohmann::json answer, const ClientOptions& options = {});
  static TunedKernel with_answer(const KernelRequest& request, CsrF64 matrix, nlohmann::json answer,
                                 const ClientOptions& options = {});
  static TunedKernel with_answer(const KernelRequest& request, CsrF64 structure, const DeviceCsr& on_device,
                                 nlohmann::json answer, const ClientOptions& options = {});

  TunedKernel(TunedKernel&&) noexcept;
  TunedKernel& operator=(TunedKernel&&) noexcept;
  ~TunedKernel();

  // Runs the kernel on `stream` (null: the legacy default stream) in the device's primary
  // context (the CUDA runtime's), over the caller's buffers by name: operands(). Returns
  // once it is enqueued. The first call compiles (or loads the cached binary) and uploads
  // the configuration's inputs; later calls only launch.
  void launch(const std::map<std::string, DeviceAddress>& operands, CUstream_st* stream = nullptr);

  // The buffers launch() takes, e.g. {"x", "y"} for SpMV, {"b", "c"} for SpMM, {"a", "b", "c"} for GEMM.
  std::vector<std::string> operands() const;
  // How the answer was found: "exact", "nearest", "default", or "none" (daemon unreachable).
  std::string match() const;
  // What launch() runs: "ktune", or the vendor call's name when the daemon was unreachable or
  // the answer says the vendor is faster ("use" in the answer), e.g. "cusparse-csr_alg1".
  std::string runs() const;
  // The daemon's answer (null when it was unreachable).
  const nlohmann::json& answer() const;
  // The signature computed here (SHA-256 of the structure, or of a dense problem's shape), as
  // the daemon computes it.
  const std::string& signature() const;

  struct State;

 private:
  explicit TunedKernel(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace ktune
