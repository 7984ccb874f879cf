#include "gpu/worker_session.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <type_traits>
#include <vector>

#include "gpu/cuda_resources.h"
#include "gpu/cusparse_api.h"
#include "gpu/device_info.h"
#include "gpu/measure_request.h"
#include "gpu/vendor_calls.h"
#include "kernels/kernel_family.h"
#include "gpu/measurement_harness.h"
#include "gpu/plan_runner.h"
#include "gpu/worker_cache.h"
#include "workload/workload.h"

namespace ktune {
namespace {

// Inputs stay cached up to this share of device memory; the rest is for the outputs,
// scratch and workspaces of the request being measured.
constexpr double kDeviceCacheShare = 0.4;
constexpr size_t kHostCacheBytes = size_t{4} << 30;
// Each 32-bit word 0x7FF87FF8 is a float NaN, and each pair of them a double NaN.
constexpr unsigned kNanPattern = 0x7FF87FF8u;

template <typename Handle>
using Owned = std::unique_ptr<std::remove_pointer_t<Handle>, std::function<void(Handle)>>;

// Everything that lives in the device context, declared so that it is destroyed in the
// right order: cached buffers and the cuSPARSE handle before the context goes.
struct Gpu {
  Gpu(const CudaDriver& cu, const DeviceInfo& info)
      : cu(cu),
        context(cu, device_of(cu)),
        stream(cu),
        flush_bytes(static_cast<size_t>(2 * info.l2_bytes)),
        flush(cu, flush_bytes),
        harness(cu, stream.get(), flush.get(), flush_bytes),
        cache(static_cast<size_t>(kDeviceCacheShare * static_cast<double>(info.memory_bytes))) {}

  static CUdevice device_of(const CudaDriver& cu) {
    CUdevice device = 0;
    cu.check(cu.device_get(&device, 0), "opening CUDA device 0");
    return device;
  }

  const CudaDriver& cu;
  PrimaryContext context;
  CudaStream stream;
  size_t flush_bytes;
  DeviceMemory flush;
  MeasurementHarness harness;
  WorkerCache<DeviceMemory> cache;
  Owned<cusparseHandle_t> cusparse;
};

class Worker {
 public:
  explicit Worker(MessageStream& stream) : stream_(stream) {}

  int run() {
    try {
      for (;;) {
        const WorkerMessage m = stream_.receive();
        switch (m.type) {
          case MessageType::Hello:
            open_device();
            stream_.send(MessageType::DeviceReport, device_.to_json());
            break;
          case MessageType::Measure:
            measure(m);
            break;
          case MessageType::CopyBandwidth:
            copy_bandwidth(m);
            break;
          default:
            reply_error("the worker does not take message type " + std::to_string(static_cast<int>(m.type)));
        }
        if (context_lost_) return kWorkerContextLost;
      }
    } catch (const WorkerError& e) {
      return e.kind == WorkerError::Kind::Closed ? 0 : 1;
    }
  }

 private:
  void open_device() {
    if (opened_) return;
    opened_ = true;
    device_ = probe_device(0);
    if (!device_.present) return;
    try {
      gpu_ = std::make_unique<Gpu>(*CudaDriver::load(), device_);
    } catch (const CudaError& e) {
      device_.present = false;
      device_.why_absent = e.what();
    }
  }

  void reply_error(const std::string& message) { stream_.send(MessageType::Error, {{"message", message}}); }

  void measure(const WorkerMessage& m) {
    MeasureRequest r;
    try {
      r = MeasureRequest::from_json(m.header);
    } catch (const std::exception& e) {
      reply_error(std::string("malformed measurement request: ") + e.what());
      return;
    }
    open_device();
    if (!gpu_) {
      reply_error("no GPU: " + device_.why_absent);
      return;
    }
    progress_interval_s_ = std::min(0.2, r.options.kernel_timeout_s / 4);
    if (!receive_inputs(r)) return;
    Measurement result;
    try {
      result = r.kind == "vendor" ? measure_vendor(r) : measure_kernel(r, m.payload);
    } catch (const WorkerError&) {
      throw;
    } catch (const CudaError& e) {
      result = failure(e.what());
    } catch (const CusparseError& e) {
      result = failure(e.what());
    } catch (const std::exception& e) {
      result = Measurement{MeasureStatus::LaunchError, 0, 0, 0, 0, e.what()};
    }
    stream_.send(MessageType::Result, result.to_json());
  }

  // Launch problems (too many threads, a missing symbol, no memory) leave the context
  // usable; a fault inside a kernel does not, and then every call reports it again.
  Measurement failure(const std::string& what) {
    if (gpu_->cu.ctx_synchronize() == CUDA_SUCCESS) return {MeasureStatus::LaunchError, 0, 0, 0, 0, what};
    context_lost_ = true;
    return {MeasureStatus::Fault, 0, 0, 0, 0, what};
  }

  // Answers Need with the contents this worker lacks and stores the uploads that follow.
  // False (after replying Error) when one could not be stored, e.g. for lack of memory.
  bool receive_inputs(const MeasureRequest& r) {
    const std::vector<std::string> device_keys = r.device_keys(), host_keys = r.host_keys();
    const std::set<std::string> on_device(device_keys.begin(), device_keys.end());
    const std::set<std::string> on_host(host_keys.begin(), host_keys.end());
    if (r.fresh) {
      for (const std::string& key : on_device) gpu_->cache.erase(key);
      for (const std::string& key : on_host) host_cache_.erase(key);
    }
    std::vector<std::string> missing;
    auto need = [&](const std::string& key) {
      if (std::find(missing.begin(), missing.end(), key) == missing.end()) missing.push_back(key);
    };
    for (const std::string& key : device_keys) {
      if (!gpu_->cache.find(key)) need(key);
    }
    for (const std::string& key : host_keys) {
      if (!host_cache_.find(key)) need(key);
    }
    stream_.send(MessageType::Need, {{"keys", missing}});

    std::map<std::string, size_t> stored_size;
    for (const WireBuffer& b : r.buffers) stored_size[b.content_key] = b.size;
    std::string error;
    for (const std::string& key : missing) {
      WorkerMessage upload = stream_.receive();
      if (upload.type != MessageType::Upload || upload.header.value("key", "") != key) {
        throw WorkerError(WorkerError::Kind::Protocol, "expected the upload of " + key);
      }
      if (!error.empty()) continue;  // keep reading: the stream must stay in step
      try {
        if (on_device.count(key)) store_on_device(key, stored_size[key], upload.payload, on_device);
        if (on_host.count(key)) {
          host_cache_.make_room(upload.payload.size(), on_host);
          const size_t bytes = upload.payload.size();
          host_cache_.insert(key, std::move(upload.payload), bytes);
        }
      } catch (const std::exception& e) {
        error = e.what();
      }
    }
    if (error.empty()) return true;
    reply_error(error);
    return false;
  }

  void store_on_device(const std::string& key, size_t size, const std::string& bytes, const std::set<std::string>& keep) {
    const CudaDriver& cu = gpu_->cu;
    if (bytes.size() > size) throw std::runtime_error("upload " + key + " is larger than its buffer");
    gpu_->cache.make_room(size, keep);
    DeviceMemory memory(cu, size);
    if (!bytes.empty()) cu.check(cu.memcpy_htod(memory.get(), bytes.data(), bytes.size()), "uploading an input buffer");
    if (size > bytes.size()) {
      cu.check(cu.memset_d8_async(memory.get() + bytes.size(), 0, size - bytes.size(), gpu_->stream.get()),
               "zeroing an input buffer's padding");
    }
    gpu_->cache.insert(key, std::move(memory), size);
  }

  BufferTable buffers_of(const MeasureRequest& r) {
    BufferTable table;
    for (const WireBuffer& b : r.buffers) {
      CUdeviceptr address;
      if (b.content_key.empty()) {
        table.owned.emplace_back(gpu_->cu, b.size);
        address = table.owned.back().get();
        // Zeroed so that a kernel reading scratch before writing it behaves the same every run.
        if (b.size > 0) {
          gpu_->cu.check(gpu_->cu.memset_d8_async(address, 0, b.size, gpu_->stream.get()), "zeroing scratch");
        }
      } else {
        address = gpu_->cache.find(b.content_key)->get();
      }
      table.address[b.name] = address;
      table.size[b.name] = b.size;
    }
    return table;
  }

  Measurement measure_kernel(const MeasureRequest& r, const std::string& cubin) {
    if (cubin.empty()) throw std::runtime_error("the request carries no cubin");
    BufferTable table = buffers_of(r);
    CudaModule module(gpu_->cu, cubin.data());
    PlanRunner runner(gpu_->cu, module, r.steps, r.program, table);
    auto run = [&] { runner.run(gpu_->stream.get()); };
    return verify_and_time(r, table, run);
  }

  // The worker's cuSPARSE handle, made on first use.
  cusparseHandle_t cusparse_handle(const CusparseApi& sp) {
    if (!gpu_->cusparse) {
      cusparseHandle_t handle = nullptr;
      sp.check(sp.create(&handle), "creating the cuSPARSE handle");
      gpu_->cusparse = Owned<cusparseHandle_t>(handle, [&sp](cusparseHandle_t h) { sp.destroy(h); });
      sp.check(sp.set_stream(handle, gpu_->stream.get()), "setting cuSPARSE's stream");
    }
    return gpu_->cusparse.get();
  }

  Measurement measure_vendor(const MeasureRequest& r) {
    std::string why;
    const CusparseApi* sp = CusparseApi::load(&why);
    BufferTable table = buffers_of(r);
    VendorEnv env{gpu_->cu,
                  gpu_->stream.get(),
                  r.problem.precision,
                  [&table](const std::string& name) { return table.at(name); },
                  [this, sp, why] {
                    if (!sp) throw std::runtime_error(why);
                    return cusparse_handle(*sp);
                  },
                  sp};
    const std::unique_ptr<VendorInvocation> call = prepare_vendor_call(r.vendor.name, r.vendor.args, env);
    return verify_and_time(r, table, [&call] { call->run(); });
  }

  // Poisons the outputs, runs once, checks each with the family's verifier; only a verified
  // run is timed.
  Measurement verify_and_time(const MeasureRequest& r, const BufferTable& table, const std::function<void()>& run) {
    const CudaDriver& cu = gpu_->cu;
    const CUstream stream = gpu_->stream.get();
    for (const WireOutput& o : r.outputs) {
      const size_t bytes = o.elements * dtype_size(o.dtype);
      if (bytes > table.size.at(o.buffer)) throw std::runtime_error("output buffer '" + o.buffer + "' is too small");
      cu.check(cu.memset_d32_async(table.at(o.buffer), kNanPattern, bytes / 4, stream), "poisoning an output");
    }
    run();
    cu.check(cu.stream_synchronize(stream), "running once to verify");
    progress();
    const Verdict verdict = check_outputs(r, table);
    if (!verdict.ok) return {MeasureStatus::VerifyFailed, 0, 0, 0, verdict.max_rel_error, verdict.message};

    const TimedRuns timed = gpu_->harness.time(run, r.options, [this] { progress(); });
    Measurement m{MeasureStatus::Ok, timed.summary.median, timed.summary.iqr(), static_cast<int>(timed.summary.count),
                  verdict.max_rel_error, ""};
    if (!timed.converged) {
      m.message = "stopped at " + std::to_string(timed.summary.count) +
                  " runs before the median's confidence interval reached the target width";
    }
    return m;
  }

  // Every output read back and checked by the request's family (the default tolerance without one).
  Verdict check_outputs(const MeasureRequest& r, const BufferTable& table) {
    const KernelFamily* family = r.family.empty() ? nullptr : find_family(r.family);
    if (!r.family.empty() && !family) throw std::runtime_error("the worker knows no kernel family '" + r.family + "'");
    CheckData data;
    for (const auto& [name, key] : r.check_keys) data[name] = host_content(key);
    Verdict all;
    all.ok = true;
    for (const WireOutput& o : r.outputs) {
      const PlanOutput output{o.buffer, o.elements, o.dtype, o.sampled, o.read_ranges};
      const std::string got = read_back(output, table.at(o.buffer));
      const std::vector<double> expected = host_values<double>(o.reference_key);
      const Verdict v = family ? family->verify(r.problem, output, got, expected, data)
                               : check_reduction_output(got, o.dtype, expected, [](size_t) { return 1.0; });
      all.max_rel_error = std::max(all.max_rel_error, v.max_rel_error);
      if (!v.ok && all.ok) {
        all.ok = false;
        all.message = (r.outputs.size() > 1 ? o.buffer + ": " : "") + v.message;
      }
    }
    return all;
  }

  // The output's bytes the verifier reads: all of them, or its read ranges one after another,
  // gathered on the device first (thousands of small synchronous copies to the host cost a
  // fixed overhead each, more than the measurement).
  std::string read_back(const PlanOutput& o, CUdeviceptr address) {
    const CudaDriver& cu = gpu_->cu;
    const size_t width = dtype_size(o.dtype);
    std::string got(o.read_elements() * width, '\0');
    if (o.read_ranges.empty()) {
      cu.check(cu.memcpy_dtoh(got.data(), address, got.size()), "reading an output back");
      return got;
    }
    DeviceMemory gathered(cu, got.size());
    size_t at = 0;
    for (const auto& [first, last] : o.read_ranges) {
      if (last > o.elements || first > last || at + (last - first) * width > got.size())
        throw std::runtime_error("a read range of output '" + o.buffer + "' lies outside it");
      cu.check(cu.memcpy_dtod_async(gathered.get() + at, address + first * width, (last - first) * width,
                                    gpu_->stream.get()),
               "gathering an output's read ranges");
      at += (last - first) * width;
    }
    cu.check(cu.stream_synchronize(gpu_->stream.get()), "gathering an output's read ranges");
    cu.check(cu.memcpy_dtoh(got.data(), gathered.get(), got.size()), "reading an output back");
    return got;
  }

  std::string_view host_content(const std::string& key) {
    const std::string* bytes = host_cache_.find(key);
    if (!bytes) throw std::runtime_error("the worker lost host content " + key);
    return *bytes;
  }

  template <typename T>
  std::vector<T> host_values(const std::string& key) {
    const std::string_view bytes = host_content(key);
    std::vector<T> values(bytes.size() / sizeof(T));
    std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
    return values;
  }

  void copy_bandwidth(const WorkerMessage& m) {
    open_device();
    if (!gpu_) {
      reply_error("no GPU: " + device_.why_absent);
      return;
    }
    const CudaDriver& cu = gpu_->cu;
    try {
      const size_t bytes = m.header.at("bytes").get<size_t>();
      DeviceMemory from(cu, bytes), to(cu, bytes);
      cu.check(cu.memset_d8_async(from.get(), 1, bytes, gpu_->stream.get()), "filling the copy source");
      auto run = [&] {
        cu.check(cu.memcpy_dtod_async(to.get(), from.get(), bytes, gpu_->stream.get()), "copying on the device");
      };
      const MeasureOptions options;
      progress_interval_s_ = std::min(0.2, options.kernel_timeout_s / 4);
      const TimedRuns timed = gpu_->harness.time(run, options, [this] { progress(); });
      const double seconds = timed.summary.median * 1e-6;
      stream_.send(MessageType::Result, {{"gbs", 2.0 * static_cast<double>(bytes) / seconds / 1e9},
                                         {"median_us", timed.summary.median}});
    } catch (const CudaError& e) {
      reply_error(failure(e.what()).message);
    } catch (const nlohmann::json::exception& e) {
      reply_error(std::string("malformed copy request: ") + e.what());
    }
  }

  // Tells the daemon the worker is alive, at most every progress_interval_s_.
  void progress() {
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last_progress_).count() < progress_interval_s_) return;
    last_progress_ = now;
    stream_.send(MessageType::Progress, nlohmann::json::object());
  }

  MessageStream& stream_;
  bool opened_ = false;
  bool context_lost_ = false;
  DeviceInfo device_;
  std::unique_ptr<Gpu> gpu_;
  WorkerCache<std::string> host_cache_{kHostCacheBytes};
  double progress_interval_s_ = 0.2;
  std::chrono::steady_clock::time_point last_progress_{};
};

}  // namespace

int serve_worker(MessageStream& stream) { return Worker(stream).run(); }

}  // namespace ktune
