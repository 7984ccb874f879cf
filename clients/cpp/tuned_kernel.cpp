#include "ktune/tuned_kernel.h"

#include <cstring>
#include <optional>
#include <set>
#include <type_traits>

#include "clients/cpp/answer_kernel.h"
#include "clients/cpp/answer_lookup.h"
#include "clients/cpp/client_settings.h"
#include "clients/cpp/device_session.h"
#include "clients/cpp/notices.h"
#include "clients/cpp/plan_buffers.h"
#include "gpu/cublas_api.h"
#include "gpu/cusparse_api.h"
#include "gpu/vendor_calls.h"
#include "workload/input_error.h"
#include "workload/signature.h"

namespace ktune {

struct TunedKernel::State {
  ClientOptions options;
  ClientSettings settings;
  const KernelFamily* family = nullptr;
  Problem problem;
  Workload workload;
  std::optional<DeviceCsr> device_matrix;
  std::string signature;
  nlohmann::json answer;
  std::string match = "none";
  Config config;
  std::optional<VendorCall> vendor;  // set when the vendor library runs instead

  // Made by the first launch (or operands()); the session is declared first so that the
  // context outlives everything made in it.
  std::unique_ptr<DeviceSession> session;
  std::optional<LaunchPlan> plan;
  std::vector<std::string> operands;
  std::shared_ptr<const CompiledKernel> kernel;
  std::unique_ptr<CudaModule> module;
  std::unique_ptr<PlanBuffers> buffers;
  std::unique_ptr<PlanRunner> runner;
  const CusparseApi* sparse = nullptr;
  std::shared_ptr<std::remove_pointer_t<cusparseHandle_t>> cusparse;
  std::unique_ptr<VendorEnv> vendor_env;
  std::unique_ptr<VendorInvocation> vendor_call;
  CUstream vendor_stream = nullptr;

  ~State() {
    // The vendor call's descriptors and workspace go before the handle, the handle before
    // the context.
    vendor_call.reset();
    vendor_env.reset();
    cusparse.reset();
  }

  void tell(const std::string& topic, const std::string& message) const { tell_once(topic, message, options.notice); }

  std::string server_text() const { return settings.server.host + ":" + std::to_string(settings.server.port); }

  DeviceSession& device() {
    if (!session) session = std::make_unique<DeviceSession>(options.device);
    return *session;
  }

  // The family's vendor call of this label (an answer's "use"), or its first (the fallback).
  void use_vendor(const std::string& label) {
    for (const VendorCall& call : family->vendor_calls(workload, problem))
      if (label.empty() || call.label == label) {
        vendor = call;
        return;
      }
  }

  // The configuration's plan for this matrix, or its vendor's; a configuration the matrix
  // refuses (a nearest neighbour's SELL form on a power-law matrix) gives way to the default.
  const LaunchPlan& launch_plan() {
    if (plan) return *plan;
    if (vendor) {
      plan = family->vendor_plan(workload, problem);
    } else {
      try {
        plan = family->prepare(workload, problem, config);
      } catch (const InputError& e) {
        tell("refused " + family->name() + signature,
             "the answer's configuration does not take this matrix (" + std::string(e.what()) +
                 "); running the family's default configuration");
        config = family->space(problem).first_valid();
        plan = family->prepare(workload, problem, config);
      }
    }
    operands = caller_operands(*family, workload, problem, *plan);
    return *plan;
  }

  std::map<std::string, CUdeviceptr> caller_addresses(const std::map<std::string, DeviceAddress>& given) const {
    std::map<std::string, CUdeviceptr> addresses(given.begin(), given.end());
    if (device_matrix) {
      const std::pair<const char*, DeviceAddress> arrays[] = {
          {"row_ptr", device_matrix->row_ptr}, {"col_idx", device_matrix->col_idx}, {"values", device_matrix->values}};
      for (const auto& [name, address] : arrays)
        if (plan->buffer(name)) addresses[name] = address;
    }
    return addresses;
  }

  std::set<std::string> from_caller() const {
    std::set<std::string> names(operands.begin(), operands.end());
    if (device_matrix) names.insert(csr_array_names().begin(), csr_array_names().end());
    return names;
  }

  void run_kernel(const std::map<std::string, CUdeviceptr>& addresses, CUstream stream) {
    const CudaDriver& cu = device().cu();
    if (!module) {
      kernel = compiled_kernel(compile_request_for(answer, *family, problem, config, session->info().arch()),
                               settings.cache_dir);
      if (!kernel->ok)
        throw LaunchError("the answer's kernel does not compile for " + session->info().arch() + ": " +
                          kernel->log.substr(0, 2000));
      module = std::make_unique<CudaModule>(cu, kernel->cubin.data());
      buffers = std::make_unique<PlanBuffers>(cu, *plan, from_caller());
    }
    if (buffers->bind(addresses) || !runner)
      runner = std::make_unique<PlanRunner>(cu, *module, plan->steps, plan->program, buffers->table());
    runner->run(stream);
  }

  // The worker's cuSPARSE handle on `stream`, made on first use: only cuSPARSE's calls ask.
  cusparseHandle_t cusparse_on(CUstream stream) {
    if (!sparse) throw LaunchError("cannot run " + vendor->label + ": cuSPARSE did not load");
    if (!cusparse) {
      cusparseHandle_t handle = nullptr;
      sparse->check(sparse->create(&handle), "creating the cuSPARSE handle");
      cusparse.reset(handle, [api = sparse](cusparseHandle_t h) { api->destroy(h); });
    }
    sparse->check(sparse->set_stream(cusparse.get(), stream), "setting cuSPARSE's stream");
    return cusparse.get();
  }

  void run_vendor(const std::map<std::string, CUdeviceptr>& addresses, CUstream stream) {
    const CudaDriver& cu = device().cu();
    if (!buffers) {
      sparse = CusparseApi::load();
      buffers = std::make_unique<PlanBuffers>(cu, *plan, from_caller());
    }
    // A call binds its buffers and stream when it is prepared (descriptors, preprocessing).
    if (buffers->bind(addresses) || !vendor_call || stream != vendor_stream) {
      vendor_call.reset();
      const BufferTable* table = &buffers->table();
      vendor_env = std::make_unique<VendorEnv>(VendorEnv{
          cu, stream, problem.precision, [table](const std::string& name) { return table->at(name); },
          [this, stream] { return cusparse_on(stream); }, sparse});
      vendor_call = prepare_vendor_call(vendor->name, vendor->args, *vendor_env);
      vendor_stream = stream;
    }
    vendor_call->run();
  }

  // The values of a matrix on the device, read back once: the configuration's own forms and
  // a tune's upload are built from them.
  void read_device_values() {
    const CudaDriver& cu = device().cu();
    device().make_current();
    const Dtype dtype = problem.precision.input;
    std::string bytes(static_cast<size_t>(workload.matrix.nnz()) * dtype_size(dtype), '\0');
    if (!bytes.empty())
      cu.check(cu.memcpy_dtoh(bytes.data(), device_matrix->values, bytes.size()), "reading the matrix's values");
    std::vector<double>& values = workload.matrix.values;
    values.resize(static_cast<size_t>(workload.matrix.nnz()));
    for (size_t i = 0; i < values.size(); ++i) {
      if (dtype == Dtype::F64) {
        std::memcpy(&values[i], bytes.data() + i * sizeof(double), sizeof(double));
      } else if (dtype == Dtype::F32) {
        float v;
        std::memcpy(&v, bytes.data() + i * sizeof v, sizeof v);
        values[i] = v;
      } else {
        throw LaunchError(std::string("a matrix on the device in ") + to_string(dtype) +
                          " cannot be read back; give its values on the host");
      }
    }
  }
};

namespace {

std::unique_ptr<TunedKernel::State> new_state(const KernelRequest& request, const ClientOptions& options) {
  auto s = std::make_unique<TunedKernel::State>();
  s->options = options;
  s->settings = resolve_settings(options);
  s->family = find_family(request.kernel);
  if (!s->family) throw std::invalid_argument("this client knows no kernel family '" + request.kernel + "'");
  s->problem = make_problem(*s->family, request.problem, precision_from_string(request.dtype));
  s->workload.kind = s->family->workload_kind();
  return s;
}

// A family whose workload is a matrix or graph, on `matrix`.
std::unique_ptr<TunedKernel::State> new_state(const KernelRequest& request, CsrF64 matrix, const ClientOptions& options) {
  auto s = new_state(request, options);
  if (s->workload.kind == WorkloadKind::Dense)
    throw std::invalid_argument("kernel '" + request.kernel + "' takes no matrix: its problem is its shape");
  s->workload.matrix = std::move(matrix);
  if (s->workload.matrix.row_ptr.size() != static_cast<size_t>(s->workload.matrix.rows) + 1)
    throw std::invalid_argument("the matrix's row_ptr must hold rows + 1 entries");
  s->signature = exact_signature(s->workload.matrix, s->workload.kind);
  return s;
}

// A family whose problem is its shape (GEMM, a contraction): the signature is the problem's.
std::unique_ptr<TunedKernel::State> new_dense_state(const KernelRequest& request, const ClientOptions& options) {
  auto s = new_state(request, options);
  if (s->workload.kind != WorkloadKind::Dense)
    throw std::invalid_argument("kernel '" + request.kernel + "' runs on a matrix: open it with one");
  s->signature = dense_signature(s->problem.key()).exact;
  return s;
}

// Takes the daemon's answer (or its absence) as what launch() will run.
void adopt(TunedKernel::State& s, nlohmann::json answer) {
  s.answer = std::move(answer);
  if (s.answer.is_null()) {
    s.use_vendor("");
    s.config = s.family->space(s.problem).first_valid();
    return;
  }
  s.match = s.answer.value("match", "exact");
  const std::string use = s.answer.value("use", "ktune");
  if (use != "ktune") s.use_vendor(use);
  if (std::optional<Config> config = answer_config(s.answer, *s.family, s.problem)) {
    s.config = *config;
  } else {
    s.tell("stale " + s.family->name(), "ktuned's " + s.family->name() +
                                            " answers are for other kernel templates than this client's; running the "
                                            "family's default configuration (update the client or the daemon)");
    s.config = s.family->space(s.problem).first_valid();
  }
}

void look_up(TunedKernel::State& s) {
  KtuneClient client(s.settings.server.host, s.settings.server.port, s.settings.token);
  const FoundAnswer found = find_answer(client, {*s.family, s.problem, s.workload, s.signature,
                                                 s.options.tune_when_missing, s.options.tune_budget});
  adopt(s, found.answer);
  if (!found.unavailable.empty()) {
    const std::string instead = s.vendor ? s.vendor->label : "the family's default configuration";
    s.tell("unavailable " + s.server_text(), found.unavailable + "; running " + instead + " instead");
  }
  if (!found.tune_job.empty())
    s.tell("tune " + s.family->name() + " " + s.signature,
           "nothing stored for this matrix: ktuned is tuning it (job " + found.tune_job +
               "); the default configuration runs until the answer is stored");
  if (!found.tune_error.empty())
    s.tell("tune refused " + s.server_text(), "could not submit a tune of this matrix: " + found.tune_error);
}

}  // namespace

TunedKernel::TunedKernel(std::unique_ptr<State> state) : state_(std::move(state)) {}
TunedKernel::TunedKernel(TunedKernel&&) noexcept = default;
TunedKernel& TunedKernel::operator=(TunedKernel&&) noexcept = default;
TunedKernel::~TunedKernel() = default;

TunedKernel TunedKernel::open(const KernelRequest& request, CsrF64 matrix, const ClientOptions& options) {
  auto s = new_state(request, std::move(matrix), options);
  look_up(*s);
  return TunedKernel(std::move(s));
}

TunedKernel TunedKernel::open(const KernelRequest& request, const ClientOptions& options) {
  auto s = new_dense_state(request, options);
  look_up(*s);
  return TunedKernel(std::move(s));
}

TunedKernel TunedKernel::with_answer(const KernelRequest& request, nlohmann::json answer, const ClientOptions& options) {
  auto s = new_dense_state(request, options);
  adopt(*s, std::move(answer));
  return TunedKernel(std::move(s));
}

TunedKernel TunedKernel::open(const KernelRequest& request, CsrF64 structure, const DeviceCsr& on_device,
                              const ClientOptions& options) {
  auto s = new_state(request, std::move(structure), options);
  s->device_matrix = on_device;
  if (s->workload.matrix.values.size() != static_cast<size_t>(s->workload.matrix.nnz())) s->read_device_values();
  look_up(*s);
  return TunedKernel(std::move(s));
}

TunedKernel TunedKernel::with_answer(const KernelRequest& request, CsrF64 matrix, nlohmann::json answer,
                                     const ClientOptions& options) {
  auto s = new_state(request, std::move(matrix), options);
  adopt(*s, std::move(answer));
  return TunedKernel(std::move(s));
}

TunedKernel TunedKernel::with_answer(const KernelRequest& request, CsrF64 structure, const DeviceCsr& on_device,
                                     nlohmann::json answer, const ClientOptions& options) {
  auto s = new_state(request, std::move(structure), options);
  s->device_matrix = on_device;
  if (s->workload.matrix.values.size() != static_cast<size_t>(s->workload.matrix.nnz())) s->read_device_values();
  adopt(*s, std::move(answer));
  return TunedKernel(std::move(s));
}

void TunedKernel::launch(const std::map<std::string, DeviceAddress>& operands, CUstream_st* stream) {
  State& s = *state_;
  try {
    s.device().make_current();
    s.launch_plan();
    const std::map<std::string, CUdeviceptr> addresses = s.caller_addresses(operands);
    if (s.vendor) s.run_vendor(addresses, stream);
    else s.run_kernel(addresses, stream);
  } catch (const CudaError& e) {
    throw LaunchError(e.what());
  } catch (const CusparseError& e) {
    throw LaunchError(e.what());
  } catch (const CublasError& e) {
    throw LaunchError(e.what());
  }
}

std::vector<std::string> TunedKernel::operands() const {
  state_->launch_plan();
  return state_->operands;
}

std::string TunedKernel::match() const { return state_->match; }
std::string TunedKernel::runs() const { return state_->vendor ? state_->vendor->label : "ktune"; }
const nlohmann::json& TunedKernel::answer() const { return state_->answer; }
const std::string& TunedKernel::signature() const { return state_->signature; }

}  // namespace ktune
