#include "gpu/measurer.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <stdexcept>

#include "gpu/measure_request.h"
#include "gpu/worker_process.h"
#include "gpu/worker_protocol.h"
#include "workload/cancellation.h"
#include "workload/input_error.h"
#include "workload/workload.h"

namespace ktune {
namespace {

// Opening the device (cuInit, the context, the flush buffer) takes seconds on a cold GPU.
constexpr double kStartupTimeout = 60;

Measurement failed(MeasureStatus status, std::string message) {
  return Measurement{status, 0, 0, 0, 0, std::move(message)};
}

template <typename T>
std::string_view bytes_of(const std::vector<T>& values) {
  return {reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)};
}


// What is wrong with a plan and its reference, before anything is sent; empty when nothing is.
std::string plan_problem(const LaunchPlan& plan, const Reference& reference) {
  std::set<std::string> names;
  for (const DeviceBuffer& b : plan.buffers) {
    if (b.name.empty()) return "a buffer has no name";
    if (!names.insert(b.name).second) return "two buffers are named '" + b.name + "'";
    if (b.size != 0 && b.size < b.bytes.size()) {
      return "buffer '" + b.name + "' is " + std::to_string(b.size) + " bytes but carries " +
             std::to_string(b.bytes.size());
    }
  }
  if (plan.outputs.empty()) return "the plan has no output to check";
  for (const PlanOutput& o : plan.outputs) {
    const DeviceBuffer* output = plan.buffer(o.buffer);
    if (!output) return "the output buffer '" + o.buffer + "' is not among the plan's buffers";
    if (!output->bytes.empty()) return "the output buffer '" + o.buffer + "' carries bytes; it is overwritten";
    auto ref = reference.find(o.buffer);
    if (ref == reference.end()) return "the reference has no values for output '" + o.buffer + "'";
    if (o.reference_elements() != ref->second.size())
      return "the plan outputs " + std::to_string(o.reference_elements()) + " reference values in '" + o.buffer +
             "', the reference has " + std::to_string(ref->second.size());
    size_t end = 0;
    for (const auto& [first, last] : o.read_ranges) {
      if (first < end || last <= first || last > o.elements)
        return "the read ranges of output '" + o.buffer + "' are not increasing ranges within it";
      end = last;
    }
    if (output->size < o.elements * dtype_size(o.dtype))
      return "the output buffer '" + o.buffer + "' is too small for " + std::to_string(o.elements) + " " +
             to_string(o.dtype) + " values";
  }
  for (const LaunchStep& step : plan.steps) {
    if (step.entry.empty()) return "a launch step names no kernel";
    const Dim3& g = step.grid;
    const Dim3& b = step.block;
    if (g.x * g.y * g.z == 0 || b.x * b.y * b.z == 0) return "launch of '" + step.entry + "' has an empty grid or block";
  }
  try {
    check_plan(plan);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Inputs are named by content and listed in `contents`; scratch and output are not.
WireBuffer wire_buffer(const DeviceBuffer& b, std::map<std::string, std::string_view>& contents) {
  if (b.bytes.empty()) return {b.name, b.size, ""};
  const size_t stored = std::max(b.size, b.bytes.size());
  // Large inputs shared by every configuration of a tune are hashed once, by HostBytes.
  const std::string key = content_key_of_id(b.bytes.content_id(), stored);
  contents[key] = b.bytes.view();
  return {b.name, stored, key};
}

// The request for `plan` without its launches: buffers, outputs with their references, the
// verifier's family, problem and check data.
MeasureRequest request_for(const LaunchPlan& plan, const PreparedReference& reference, const MeasureOptions& options,
                           std::map<std::string, std::string_view>& contents) {
  MeasureRequest request;
  request.family = plan.family;
  request.problem = plan.problem;
  request.options = options;
  for (const DeviceBuffer& b : plan.buffers) request.buffers.push_back(wire_buffer(b, contents));
  for (const PlanOutput& o : plan.outputs) {
    const std::string& key = reference.key(o.buffer);
    contents[key] = bytes_of(reference.values().at(o.buffer));
    request.outputs.push_back({o.buffer, o.elements, o.dtype, key, o.sampled, o.read_ranges});
  }
  for (const auto& [name, bytes] : plan.check_data) {
    const std::string key = content_key_of_id(bytes.content_id(), bytes.size());
    contents[key] = bytes.view();
    request.check_keys[name] = key;
  }
  return request;
}

}  // namespace

std::string default_worker_path() {
  std::string exe(4096, '\0');
  const ssize_t n = readlink("/proc/self/exe", exe.data(), exe.size());
  exe.resize(n > 0 ? static_cast<size_t>(n) : 0);
  const size_t slash = exe.rfind('/');
  return (slash == std::string::npos ? std::string(".") : exe.substr(0, slash)) + "/ktune-measure-worker";
}

Measurer::Measurer(std::string worker_path) : worker_path_(std::move(worker_path)) {}

Measurer::~Measurer() = default;

bool Measurer::available() {
  std::lock_guard<std::mutex> lock(mutex_);
  return probe().present;
}

DeviceInfo Measurer::device() {
  std::lock_guard<std::mutex> lock(mutex_);
  return probe();
}

const DeviceInfo& Measurer::probe() {
  if (device_) return *device_;
  device_ = DeviceInfo{};
  if (access(worker_path_.c_str(), X_OK) != 0) {
    device_->why_absent = "the measurement worker " + worker_path_ + " is missing or not executable";
    return *device_;
  }
  try {
    start_worker();
  } catch (const WorkerError& e) {
    device_->why_absent = std::string("the measurement worker did not start: ") + e.what();
    worker_.reset();
  }
  if (!device_->present) worker_.reset();
  return *device_;
}

void Measurer::start_worker() {
  worker_ = std::make_unique<WorkerProcess>(worker_path_);
  worker_->stream().send(MessageType::Hello, nlohmann::json::object(), {}, kStartupTimeout);
  const WorkerMessage report = worker_->stream().receive(kStartupTimeout);
  if (report.type != MessageType::DeviceReport) {
    throw WorkerError(WorkerError::Kind::Protocol, "the worker answered Hello with something else");
  }
  try {
    device_ = DeviceInfo::from_json(report.header);
  } catch (const nlohmann::json::exception& e) {
    throw WorkerError(WorkerError::Kind::Protocol, std::string("malformed device report: ") + e.what());
  }
}

PreparedReference::PreparedReference(Reference values) : values_(std::move(values)) {
  for (const auto& [name, v] : values_) keys_[name] = content_key(bytes_of(v), v.size() * sizeof(double));
}

Measurement Measurer::measure(const CompiledKernel& kernel, const LaunchPlan& plan, const PreparedReference& reference,
                              const MeasureOptions& options) {
  options.validate();
  if (!kernel.ok) return failed(MeasureStatus::LaunchError, "the kernel did not compile: " + kernel.log);
  if (kernel.cubin.empty()) return failed(MeasureStatus::LaunchError, "the kernel has no cubin to load");
  if (const std::string problem = plan_problem(plan, reference.values()); !problem.empty())
    return failed(MeasureStatus::LaunchError, problem);
  Contents contents;
  MeasureRequest request = request_for(plan, reference, options, contents);
  for (LaunchStep step : plan.steps) {
    auto lowered = kernel.lowered_names.find(step.entry);
    if (lowered != kernel.lowered_names.end()) step.entry = lowered->second;
    request.steps.push_back(std::move(step));
  }
  request.program = plan.program;
  return exchange(request, contents, kernel.cubin);
}

Measurement Measurer::measure_vendor(const LaunchPlan& plan, const VendorCall& call, const PreparedReference& reference,
                                     const MeasureOptions& options) {
  options.validate();
  if (const std::string problem = plan_problem(plan, reference.values()); !problem.empty())
    return failed(MeasureStatus::LaunchError, problem);
  Contents contents;
  MeasureRequest request = request_for(plan, reference, options, contents);
  request.kind = "vendor";
  request.vendor = call;
  return exchange(request, contents, {});
}

double Measurer::device_copy_bandwidth_gbs(size_t bytes) {
  if (bytes == 0) throw InputError("a copy bandwidth test needs at least one byte");
  std::lock_guard<std::mutex> lock(mutex_);
  if (!probe().present) throw std::runtime_error("no GPU to measure on: " + device_->why_absent);
  const double timeout = MeasureOptions{}.kernel_timeout_s;
  try {
    if (!worker_) start_worker();
    worker_->stream().send(MessageType::CopyBandwidth, {{"bytes", bytes}}, {}, timeout);
    const WorkerMessage reply = await_reply(timeout);
    if (reply.type == MessageType::Error) throw std::runtime_error(reply.header.value("message", "copy failed"));
    return reply.header.at("gbs").get<double>();
  } catch (const WorkerError& e) {
    throw std::runtime_error("copy bandwidth not measured: " + abandon_worker(e).message);
  } catch (const Cancelled&) {
    drop_worker_mid_exchange();
    throw;
  }
}

Measurement Measurer::exchange(MeasureRequest& request, const Contents& contents, std::string_view cubin) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!probe().present) return failed(MeasureStatus::LaunchError, "no GPU to measure on: " + device_->why_absent);
  bool sent_everything = false;
  Measurement m = exchange_once(request, contents, cubin, &sent_everything);
  // An earlier kernel may have scribbled over a cached input; a failure that used cached
  // inputs is only believed once it repeats on freshly uploaded ones.
  if (m.status == MeasureStatus::VerifyFailed && !sent_everything) {
    request.fresh = true;
    m = exchange_once(request, contents, cubin, &sent_everything);
  }
  return m;
}

Measurement Measurer::exchange_once(const MeasureRequest& request, const Contents& contents, std::string_view cubin,
                                    bool* sent_everything) {
  const double timeout = request.options.kernel_timeout_s;
  try {
    if (!worker_) start_worker();
    MessageStream& stream = worker_->stream();
    stream.send(MessageType::Measure, request.to_json(), cubin, timeout);
    WorkerMessage reply = stream.receive(timeout);
    if (reply.type == MessageType::Error) return failed(MeasureStatus::LaunchError, reply.header.value("message", ""));
    if (reply.type != MessageType::Need) throw WorkerError(WorkerError::Kind::Protocol, "expected Need from the worker");
    const auto keys = reply.header.at("keys").get<std::vector<std::string>>();
    *sent_everything = keys.size() == contents.size();
    for (const std::string& key : keys) {
      auto it = contents.find(key);
      if (it == contents.end()) throw WorkerError(WorkerError::Kind::Protocol, "the worker asked for unknown " + key);
      stream.send(MessageType::Upload, {{"key", key}}, it->second, timeout);
    }
    reply = await_reply(timeout);
    if (reply.type == MessageType::Error) return failed(MeasureStatus::LaunchError, reply.header.value("message", ""));
    const Measurement m = Measurement::from_json(reply.header);
    if (m.status == MeasureStatus::Fault) worker_.reset();  // it exits: its context is gone
    return m;
  } catch (const WorkerError& e) {
    return abandon_worker(e);
  } catch (const Cancelled&) {
    drop_worker_mid_exchange();
    throw;
  } catch (const std::exception& e) {  // a reply that does not parse
    return abandon_worker(WorkerError(WorkerError::Kind::Protocol, e.what()));
  }
}

Measurement Measurer::abandon_worker(const WorkerError& e) {
  if (e.kind == WorkerError::Kind::Closed) {
    const std::string how = worker_ ? worker_->exit_description() : "could not be started";
    worker_.reset();
    return failed(MeasureStatus::Fault, "the measurement worker " + how + " (" + e.what() + ")");
  }
  if (worker_) worker_->kill();
  worker_.reset();
  if (e.kind == WorkerError::Kind::Timeout) {
    return failed(MeasureStatus::Timeout,
                  std::string("the kernel hung or ran too long: ") + e.what() + "; the worker was killed");
  }
  return failed(MeasureStatus::Fault, std::string("the measurement worker broke the protocol: ") + e.what());
}

void Measurer::drop_worker_mid_exchange() {
  // The job stopped waiting in the middle of an exchange: the worker's next message would be
  // out of step, so it goes (a new one starts with the next measurement).
  if (worker_) worker_->kill();
  worker_.reset();
}

WorkerMessage Measurer::await_reply(double timeout_s) {
  for (;;) {
    WorkerMessage m = worker_->stream().receive(timeout_s);
    if (m.type == MessageType::Result || m.type == MessageType::Error) return m;
    if (m.type != MessageType::Progress) throw WorkerError(WorkerError::Kind::Protocol, "unexpected message from the worker");
  }
}

}  // namespace ktune
