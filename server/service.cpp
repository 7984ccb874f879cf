#include "server/service.h"

#include <malloc.h>

#include <set>
#include <sstream>

#include "db/baseline_repository.h"
#include "model/device_spec.h"
#include "db/candidate_repository.h"
#include "db/damaged_rows.h"
#include "db/device_repository.h"
#include "db/job_repository.h"
#include "db/measurement_repository.h"
#include "db/result_repository.h"
#include "db/upload_repository.h"
#include "db/workload_repository.h"
#include "server/device_calibration.h"
#include "server/device_fit.h"
#include "server/job_json.h"
#include "server/job_observer.h"
#include "server/json_body.h"
#include "server/legacy_answers.h"
#include "server/logging.h"
#include "server/report_table.h"
#include "server/service_errors.h"
#include "server/service_parts.h"
#include "server/tune_answer.h"
#include "server/tune_request.h"
#include "workload/gzip.h"
#include "workload/matrix_market.h"
#include "workload/input_error.h"
#include "workload/sha256.h"
#include "workload/signature.h"

namespace ktune {
namespace {

// Nearest-neighbour reuse stops beyond this feature distance: farther matrices differ in class.
constexpr double kMaxNeighbourDistance = 1.0;
// GET /v1/jobs: how many jobs a list holds unless asked, and at most.
constexpr int64_t kDefaultJobsListed = 20;
constexpr int64_t kMaxJobsListed = 200;

const char* kind_name(WorkloadKind k) {
  switch (k) {
    case WorkloadKind::Graph: return "graph";
    case WorkloadKind::Dense: return "dense";
    default: return "sparse";
  }
}

// A dense workload is its problem's shape: its signature hashes the problem.
Signature workload_signature(const Workload& w, const Problem& problem) {
  return w.kind == WorkloadKind::Dense ? dense_signature(problem.key()) : compute_signature(w.matrix, w.kind);
}


// The search's seed: kept with the job so that a resumed job replays the same proposals;
// derived from the request otherwise, so that repeated tunes search alike.
uint64_t search_seed(const JobRecord& job) {
  if (job.search_state && job.search_state->contains("seed")) return (*job.search_state)["seed"].get<uint64_t>();
  return std::stoull(sha256_hex(job.dedup_key).substr(0, 15), nullptr, 16);
}

int64_t store_workload(Database& db, const Signature& sig, WorkloadKind kind, const CsrF64& m,
                       const std::string& description) {
  WorkloadRecord w;
  w.signature = sig.exact;
  w.kind = kind_name(kind);
  w.rows = m.rows;
  w.cols = m.cols;
  w.nnz = m.nnz();
  w.features = sig.to_json();
  w.vector = sig.vector;
  w.description = description;
  return WorkloadRepository(db).upsert(w);
}

// An answer as stored, relabelled for how this request found it ("source" says separately
// whether its time was measured).
nlohmann::json relabel(nlohmann::json answer, const char* match, double distance, const nlohmann::json& neighbour) {
  answer["match"] = match;
  answer["distance"] = distance;
  answer["neighbour"] = neighbour;
  return answer;
}

// One of a bounded number of places, given back when it goes out of scope.
class WaiterSlot {
 public:
  WaiterSlot(std::atomic<int>& in_use, int limit) : in_use_(in_use) {
    taken_ = in_use_.fetch_add(1) < limit;
    if (!taken_) in_use_.fetch_sub(1);
  }
  ~WaiterSlot() {
    if (taken_) in_use_.fetch_sub(1);
  }
  WaiterSlot(const WaiterSlot&) = delete;
  WaiterSlot& operator=(const WaiterSlot&) = delete;
  bool taken() const { return taken_; }

 private:
  std::atomic<int>& in_use_;
  bool taken_ = false;
};

}  // namespace

ServiceParts::ServiceParts(const ServerConfig& c)
    : config(c),
      db(c.db_path),
      compile_store(db),
      compile_cache(compiler, c.compile_cache_entries, &compile_store),
      compile_pool(c.compile_threads > 0 ? static_cast<size_t>(c.compile_threads) : ThreadPool::default_size()),
      resolver(c.data_dir, c.limits,
               [this](const std::string& id) {
                 std::optional<UploadRecord> u = UploadRepository(db).get(id);
                 if (!u) throw NotFoundError("no uploaded matrix '" + id + "' (POST /v1/matrices first)");
                 return u->content;
               }),
      lookup(kMaxNeighbourDistance) {
  auto candidate = std::make_unique<Measurer>(c.worker_path.empty() ? default_worker_path() : c.worker_path);
  if (candidate->available()) {
    measurer = std::move(candidate);
    device = measurer->device();
    log_info("GPU found: " + device.name + " (" + device.arch() + "); answers are measured");
  } else {
    log_info("no GPU available: model-only mode, answers are predicted and marked \"source\": \"model\"");
  }
  gpu = spec_for_device(device, c.arch);
  // The GPU, its driver and NVRTC; each family's templates version its answers separately.
  device_fingerprint = ktune::device_fingerprint(device, NvrtcCompiler::version(), "");
  device_id = DeviceRepository(db).upsert(device_fingerprint, device.present ? device.name : "model-only " + gpu.arch,
                                          device.present ? device.to_json() : nlohmann::json{{"arch", gpu.arch}});
  if (const int moved = adopt_legacy_answers(db, device, NvrtcCompiler::version(), device_id); moved > 0)
    log_info("carried " + std::to_string(moved) + " answers stored before kernel versions over to this device");
  use_stored_calibration(*this);
  TunerContext tc;
  tc.compile_cache = &compile_cache;
  tc.compile_pool = &compile_pool;
  tc.gpu = gpu;
  tc.measurer = measurer.get();
  tc.log = [](const std::string& m) { log(LogLevel::Warn, m); };
  tuner = std::make_unique<Tuner>(tc);
  for (const ReportRow& row : ResultRepository(db).list_report())
    lookup.remember({{row.result.kernel, row.result.problem, row.result.dtype, row.device.fingerprint,
                      row.result.kernel_version},
                     row.workload.signature,
                     row.workload.vector,
                     row.result.answer});
  if (const DamagedRows damaged = damaged_rows_seen(); damaged.count > 0)
    log(LogLevel::Warn, "database " + c.db_path + ": skipped " + std::to_string(damaged.count) +
                            " damaged rows (the first: " + damaged.first + "); the rest is served");
}

Service::Service(const ServerConfig& config) : parts_(std::make_unique<ServiceParts>(config)) {
  kernels();  // the catalog, built before any request waits for it
  ServiceParts& p = *parts_;
  auto runner = [&p](const JobRecord& job, JobControl& control) -> nlohmann::json {
    const TuneFields t = parse_tune_request(job.request);
    const KernelFamily& family = *t.family;
    ResolvedWorkload resolved = p.resolver.load(t.workload, family.workload_kind(), family.reads_values(t.problem));
    const Workload& w = resolved.workload;
    family.check_problem(w, t.problem);  // before anything is allocated for it
    check_fits_device(family, w, t.problem, p.device);
    const Signature sig = workload_signature(w, t.problem);
    // An upload was named when it was stored (its file name): keep that name. A dense
    // workload is named by its shape.
    const std::string description = t.workload.contains("upload")     ? ""
                                    : w.kind == WorkloadKind::Dense ? t.problem.key()
                                                                    : resolved.description;
    const int64_t workload_id = store_workload(p.db, sig, w.kind, w.matrix, description);
    const AnswerKey key = p.answer_key(family, t.problem);
    if (!t.force) {
      if (auto hit = p.lookup.exact(key, sig.exact)) return relabel(hit->answer, "exact", 0, nullptr);
    }
    TuneRequest request;
    request.family = &family;
    request.problem = t.problem;
    request.budget = t.budget;
    request.hot = t.hot;
    request.target_speedup = t.target_speedup;
    request.seed = search_seed(job);
    const std::unique_ptr<TuneObserver> observer =
        make_job_observer(p, job, control, workload_id, family, t.problem, t.hot, request.seed);
    const TuneOutcome outcome = p.tuner->run(w, request, *observer);
    if (control.cancelled()) return nullptr;
    if (!outcome.best) throw std::runtime_error("no configuration of " + family.name() + " compiled and verified");
    const AnswerContext context{p.tuner.get(), p.device_fingerprint, NvrtcCompiler::version(), job.id};
    nlohmann::json answer = build_tune_answer(family, w, sig, t.problem, outcome, context);

    nlohmann::json vendor = nlohmann::json::array();  // stored as baselines when measured (the job's observer)
    for (const VendorTiming& v : outcome.vendor) {
      if (v.measurement.status != MeasureStatus::Ok) continue;
      vendor.push_back({{"name", v.name}, {"median_us", v.measurement.median_us}});
    }
    ResultRecord r;
    r.workload_id = workload_id;
    r.kernel = key.kernel;
    r.problem = key.problem;
    r.dtype = key.dtype;
    r.device_id = p.device_id;
    r.kernel_version = key.version;
    r.config = answer["parameters"];
    r.answer = answer;
    r.source = outcome.measured ? ResultSource::Measured : ResultSource::Model;
    r.predicted_us = outcome.best->prediction.time_us;
    if (outcome.best->measured_ok()) r.measured_us = outcome.best->measurement->median_us;
    if (!vendor.empty()) r.vendor = vendor;
    r.provenance = answer["provenance"];
    r.job_id = job.id;
    ResultRepository(p.db).upsert(r);
    p.lookup.remember({key, sig.exact, sig.vector, answer});
    return answer;
  };
  p.jobs = std::make_unique<JobManager>(p.db, p.metrics, runner, p.config.job_threads, p.config.queue_capacity);
}

Service::~Service() { shutdown(); }

void Service::resume_jobs() { parts_->jobs->resume_unfinished(); }

void Service::shutdown() {
  if (parts_->jobs) parts_->jobs->shutdown();
}

Metrics& Service::metrics() { return parts_->metrics; }

nlohmann::json Service::upload_matrix(const std::string& body, const std::string& name, bool* created) {
  ServiceParts& p = *parts_;
  if (body.empty()) throw InputError("the request body is empty; send a Matrix Market file (plain or gzip)");
  // A parse frees hundreds of megabytes at once, refused or not: give them back when it ends
  // rather than let glibc keep them for the next one.
  struct TrimOnExit {
    ~TrimOnExit() { malloc_trim(0); }
  } trim;
  Signature sig;
  int64_t workload_id = 0, rows = 0, cols = 0, nnz = 0;
  {  // the matrix is freed before the upload is compressed and stored
    const CsrF64 matrix = parse_matrix_market(std::string_view(body), p.config.limits);
    sig = compute_signature(matrix, WorkloadKind::SparseMatrix);
    workload_id = store_workload(p.db, sig, WorkloadKind::SparseMatrix, matrix,
                                 name.empty() ? "upload:m" + sig.exact.substr(0, 20) : name);
    rows = matrix.rows;
    cols = matrix.cols;
    nnz = matrix.nnz();
  }
  const std::string id = "m" + sig.exact.substr(0, 20);
  const std::string compressed = is_gzip(body) ? std::string() : gzip_compress(body);
  const StoredUpload stored = UploadRepository(p.db).put(id, workload_id, compressed.empty() ? body : compressed,
                                                        {p.config.max_uploads, p.config.max_upload_bytes});
  *created = stored.created;
  for (const std::string& evicted : stored.evicted) log_info("upload store full: evicted " + evicted + ", the least recently used");
  p.metrics.increment("uploads_evicted_total", static_cast<double>(stored.evicted.size()));
  p.metrics.increment("uploads_total");
  return {{"id", id}, {"signature", sig.exact}, {"features", sig.to_json()}, {"rows", rows}, {"cols", cols}, {"nnz", nnz}};
}

TuneReply Service::tune(const nlohmann::json& request) {
  ServiceParts& p = *parts_;
  const TuneFields t = parse_tune_request(request);
  p.resolver.validate(t.workload, t.family->workload_kind());
  // A dense workload is its problem: a shape too large for the device is refused now, with the
  // request, rather than by its job (the job checks again, as for every workload).
  if (t.family->workload_kind() == WorkloadKind::Dense) {
    const Workload dense{WorkloadKind::Dense, {}};
    t.family->check_problem(dense, t.problem);
    check_fits_device(*t.family, dense, t.problem, p.device);
  }
  const AnswerKey key = p.answer_key(*t.family, t.problem);

  // An upload's signature is known without loading it: a stored answer comes back at once.
  if (t.workload.contains("upload")) {
    const std::string id = t.workload["upload"].get<std::string>();
    if (!UploadRepository(p.db).touch(id)) throw NotFoundError("no uploaded matrix '" + id + "' (POST /v1/matrices first)");
  }
  if (!t.force && t.family->workload_kind() == WorkloadKind::Dense)
    if (auto hit = p.lookup.exact(key, dense_signature(t.problem.key()).exact))
      return {200, relabel(hit->answer, "exact", 0, nullptr)};
  if (!t.force && t.workload.contains("upload")) {
    std::optional<UploadRecord> upload = UploadRepository(p.db).get(t.workload["upload"].get<std::string>());
    if (!upload) throw NotFoundError("no uploaded matrix '" + t.workload["upload"].get<std::string>() + "'");
    if (auto w = WorkloadRepository(p.db).get(upload->workload_id))
      if (auto hit = p.lookup.exact(key, w->signature))
        return {200, relabel(hit->answer, "exact", 0, nullptr)};
  }
  nlohmann::json budget = {{"measurements", t.budget.measurements}, {"seconds", t.budget.seconds},
                           {"compiles", t.budget.model_compiles}, {"patience", t.budget.patience}};
  if (t.target_speedup) budget["target_speedup"] = *t.target_speedup;
  const std::string dedup_key = sha256_hex(key.kernel + '\n' + key.problem + '\n' + key.dtype + '\n' +
                                           p.resolver.canonical(t.workload, t.family->workload_kind()) + '\n' +
                                           budget.dump() + (t.hot ? "\nhot" : "") + (t.force ? "\nforce" : ""));
  const JobManager::Submitted submitted = p.jobs->submit(request, dedup_key);
  const nlohmann::json ticket = {{"job", submitted.id}, {"state", "queued"}, {"joined", !submitted.is_new},
                                 {"poll", "/v1/jobs/" + submitted.id}};
  if (!t.wait) return {202, ticket};
  // A waiting client holds an HTTP thread: only so many may, and only so long.
  WaiterSlot slot(p.waiters, p.config.waiters());
  if (!slot.taken()) {
    p.metrics.increment("tune_waits_refused_total");
    return {202, ticket};
  }
  const JobRecord job = p.jobs->wait(submitted.id, std::min(t.wait_seconds, p.config.max_wait_seconds));
  if (job.state == JobState::Done && job.best) return {200, *job.best};
  if (job.state == JobState::Failed) {
    const std::optional<JobFailure> failure = p.jobs->failure(job.id);
    return {failure ? failure->http_status : 500, {{"error", job.error.value_or("job failed")}, {"job", job.id}}};
  }
  if (job.state == JobState::Cancelled) return {409, {{"error", "job " + job.id + " was cancelled"}, {"job", job.id}}};
  nlohmann::json still_running = ticket;
  still_running["state"] = to_string(job.state);
  return {202, still_running};
}

nlohmann::json Service::delete_upload(const std::string& id) {
  UploadRepository uploads(parts_->db);
  if (uploads.in_use(id)) throw ConflictError("upload '" + id + "' is named by a queued or running job; cancel it first");
  if (!uploads.remove(id)) throw NotFoundError("no uploaded matrix '" + id + "'");
  parts_->metrics.increment("uploads_deleted_total");
  return {{"id", id}, {"deleted", true}};
}

nlohmann::json Service::job(const std::string& id) { return job_json(parts_->jobs->get(id)); }

nlohmann::json Service::cancel_job(const std::string& id) { return job_json(parts_->jobs->cancel(id)); }

nlohmann::json Service::jobs(const std::string& state, const std::string& limit_text) {
  std::vector<JobState> states;
  if (state == "active")
    states = {JobState::Queued, JobState::Running};
  else if (!state.empty())
    try {
      states = {job_state_from_string(state)};
    } catch (const InputError&) {
      throw InputError("'state' must be active, queued, running, done, failed or cancelled; got '" + state + "'");
    }
  int64_t limit = kDefaultJobsListed;
  if (!limit_text.empty()) {
    size_t used = 0;
    try {
      limit = std::stoll(limit_text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != limit_text.size() || limit < 1 || limit > kMaxJobsListed)
      throw InputError("'limit' must be a whole number from 1 to " + std::to_string(kMaxJobsListed) + "; got '" +
                       limit_text + "'");
  }
  nlohmann::json listed = nlohmann::json::array();
  for (const JobRecord& j : JobRepository(parts_->db).list_recent(limit, states)) listed.push_back(job_summary_json(j));
  return {{"jobs", listed}};
}

nlohmann::json Service::job_candidates(const std::string& id) {
  parts_->jobs->get(id);  // NotFoundError for an unknown job, rather than an empty list
  nlohmann::json listed = nlohmann::json::array();
  for (const CandidateWithMeasurement& c : CandidateRepository(parts_->db).list_with_measurements(id))
    listed.push_back(candidate_json(c));
  return {{"job", id}, {"candidates", listed}};
}

nlohmann::json Service::lookup(const std::string& kernel, const std::string& signature_text, const std::string& dtype_text,
                               const std::string& device, const std::string& features, const std::string& problem_text) {
  ServiceParts& p = *parts_;
  const KernelFamily& family = family_named(kernel);
  nlohmann::json params;
  if (!problem_text.empty()) params = parse_json_object(problem_text, "the 'problem' query parameter");
  const Precision precision = dtype_text.empty() ? family.precisions().front() : precision_from_string(dtype_text);
  const Problem problem = make_problem(family, params, precision);
  AnswerKey key = p.answer_key(family, problem);
  if (!device.empty()) key.device = device;
  // A dense workload is its problem: its signature is the problem's, and its neighbours are
  // the stored shapes nearest by problem_distance.
  const bool dense = family.workload_kind() == WorkloadKind::Dense;
  if (!dense && signature_text.empty())
    throw InputError("missing query parameter 'signature' (kernel, signature, dtype are required)");
  const std::string signature = dense ? dense_signature(problem.key()).exact : signature_text;
  if (auto hit = p.lookup.exact(key, signature)) return relabel(hit->answer, "exact", 0, nullptr);

  std::vector<double> vector;
  if (!features.empty()) {
    std::stringstream in(features);
    std::string item;
    while (std::getline(in, item, ',')) {
      try {
        vector.push_back(std::stod(item));
      } catch (const std::exception&) {
        throw InputError("'features' must be comma-separated numbers; got '" + item + "'");
      }
    }
  } else if (auto w = WorkloadRepository(p.db).get_by_signature(signature)) {
    vector = w->vector;
  }
  if (!vector.empty() || dense)
    if (auto n = p.lookup.nearest(key, vector))
      return relabel(n->stored->answer, "nearest", n->distance, n->stored->signature);
  nlohmann::json answer;
  {
    // Cached by what the default depends on: a device named in the query changes only its
    // provenance, and keying by it would let a client grow the cache without bound.
    AnswerKey cache_key = key;
    cache_key.device.clear();
    std::lock_guard<std::mutex> lock(p.defaults_mutex);
    nlohmann::json& cached = p.defaults[cache_key.text()];
    if (cached.is_null())
      cached = default_answer(family, problem, AnswerContext{p.tuner.get(), p.device_fingerprint, NvrtcCompiler::version(), ""});
    answer = cached;
  }
  answer["provenance"]["device_fingerprint"] = key.device;
  answer["signature"] = signature;
  return answer;
}

namespace {

// The registered families, their problems and spaces: fixed for the process's life, and costly
// to build (each enumerable space is counted, about 0.14 s in all), so built once. Built per
// request, GET /v1/kernels took over 0.5 s on two busy cores.
nlohmann::json kernel_catalog() {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : all_families()) {
    nlohmann::json precisions = nlohmann::json::array();
    for (const Precision& precision : f->precisions()) precisions.push_back(to_string(precision));
    const ProblemSchema schema = f->problem_schema();
    // The space of the problem's defaults: families whose space depends on the problem say so
    // in their description.
    const ParameterSpace space = f->space(make_problem(*f, nullptr, f->precisions().front()));
    nlohmann::json described = space.describe();
    out.push_back({{"name", f->name()},
                   {"description", f->description()},
                   {"workload", kind_name(f->workload_kind())},
                   {"dtypes", precisions},
                   {"problem", schema.describe()},
                   {"version", family_version(*f)},
                   {"configurations", described["configurations"]},
                   {"space", described}});
  }
  return {{"kernels", out}};
}

}  // namespace

const nlohmann::json& Service::kernels() const {
  static const nlohmann::json catalog = kernel_catalog();
  return catalog;
}

nlohmann::json Service::devices() {
  ServiceParts& p = *parts_;
  nlohmann::json known = nlohmann::json::array();
  for (const DeviceRecord& d : DeviceRepository(p.db).list())
    known.push_back({{"id", d.id}, {"fingerprint", d.fingerprint}, {"name", d.name}, {"details", d.details},
                     {"calibrated", d.calibration.has_value()}});
  return {{"this",
           {{"fingerprint", p.device_fingerprint},
            {"mode", p.measurer ? "gpu" : "model-only"},
            {"arch", p.gpu.arch},
            {"timing_source", p.tuner->gpu()->timing_source},  // a calibration since the start swaps it
            {"name", p.device.present ? p.device.name : "model-only " + p.gpu.arch},
            {"nvrtc_version", NvrtcCompiler::version()}}},
          {"known", known}};
}

nlohmann::json Service::report() { return report_json(ResultRepository(parts_->db).list_report()); }

std::string Service::report_text() { return report_text_table(ResultRepository(parts_->db).list_report()); }

std::string Service::metrics_text() {
  ServiceParts& p = *parts_;
  const CompileCache::Stats s = p.compile_cache.stats();
  p.metrics.set_gauge("compile_cache_memory_hits", static_cast<double>(s.hits_memory));
  p.metrics.set_gauge("compile_cache_store_hits", static_cast<double>(s.hits_store));
  p.metrics.set_gauge("compiles", static_cast<double>(s.compiles));
  p.metrics.set_gauge("stored_answers", static_cast<double>(p.lookup.size()));
  const UploadUsage uploads = UploadRepository(p.db).usage();
  p.metrics.set_gauge("uploads_stored", static_cast<double>(uploads.uploads));
  p.metrics.set_gauge("uploads_stored_bytes", static_cast<double>(uploads.bytes));
  p.metrics.set_gauge("database_bytes", static_cast<double>(p.db.size_bytes()));
  p.metrics.set_gauge("database_damaged_rows", static_cast<double>(damaged_rows_seen().count));
  p.metrics.set_gauge("gpu_present", p.measurer ? 1 : 0);
  return p.metrics.prometheus();
}

}  // namespace ktune
