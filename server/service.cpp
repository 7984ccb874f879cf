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
#include "kernel_templates.h"
#include "server/device_calibration.h"
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

std::string templates_hash() {
  Sha256 h;
  for (std::string_view t : templates::all()) {
    h.update(t.data(), t.size());
    h.update("\0", 1);
  }
  return h.hex_digest();
}

const char* kind_name(WorkloadKind k) { return k == WorkloadKind::Graph ? "graph" : "sparse"; }


// done/planned always; the search's own fields (docs/api.md) once it reported them.
nlohmann::json progress_json(const JobRecord& j) {
  nlohmann::json progress = {{"done", j.progress_done}, {"planned", j.progress_planned}};
  if (j.search_state && j.search_state->contains("progress"))
    for (const auto& [key, value] : (*j.search_state)["progress"].items()) progress[key] = value;
  return progress;
}

// The search's seed: kept with the job so that a resumed job replays the same proposals;
// derived from the request otherwise, so that repeated tunes search alike.
uint64_t search_seed(const JobRecord& job) {
  if (job.search_state && job.search_state->contains("seed")) return (*job.search_state)["seed"].get<uint64_t>();
  return std::stoull(sha256_hex(job.dedup_key).substr(0, 15), nullptr, 16);
}

nlohmann::json job_json(const JobRecord& j) {
  return {{"id", j.id},
          {"state", to_string(j.state)},
          {"progress", progress_json(j)},
          {"best", j.best ? *j.best : nlohmann::json()},
          {"error", j.error ? nlohmann::json(*j.error) : nlohmann::json()},
          {"request", j.request},
          {"created_at", j.created_at},
          {"updated_at", j.updated_at}};
}

MeasurementStatus stored_status(const CandidateOutcome& c) {
  if (!c.kernel || !c.kernel->ok) return MeasurementStatus::CompileError;
  switch (c.measurement->status) {
    case MeasureStatus::Ok: return MeasurementStatus::Ok;
    case MeasureStatus::VerifyFailed: return MeasurementStatus::VerifyFailed;
    case MeasureStatus::Timeout: return MeasurementStatus::Timeout;
    default: return MeasurementStatus::Fault;
  }
}

MeasureStatus measure_status(MeasurementStatus s) {
  switch (s) {
    case MeasurementStatus::Ok: return MeasureStatus::Ok;
    case MeasurementStatus::VerifyFailed: return MeasureStatus::VerifyFailed;
    case MeasurementStatus::Timeout: return MeasureStatus::Timeout;
    default: return MeasureStatus::Fault;
  }
}

// Persists every candidate as it lands and reports progress; feeds back what a previous run
// of the same job already measured.
class JobObserver : public TuneObserver {
 public:
  JobObserver(ServiceParts& parts, const JobRecord& job, JobControl& control, int64_t workload_id,
              const std::string& kernel, Dtype dtype, bool hot, uint64_t seed)
      : parts_(parts), job_(job), control_(control), workload_id_(workload_id), kernel_(kernel), dtype_(dtype), hot_(hot),
        seed_(seed) {
    // A restarted job keeps the vendor baseline it measured before (search_state["vendor"]).
    if (job.search_state && job.search_state->contains("vendor")) vendor_ = (*job.search_state)["vendor"];
    if (job.search_state && job.search_state->contains("finalists")) finalists_ = (*job.search_state)["finalists"];
    if (job.search_state && job.search_state->contains("progress")) {
      const nlohmann::json& p = (*job.search_state)["progress"];
      if (p.contains("elapsed_s") && p["elapsed_s"].is_number()) elapsed_before_ = p["elapsed_s"].get<double>();
    }
    control_.search_state(state());
    for (const MeasuredCandidate& m : MeasurementRepository(parts.db).list_for_job(job.id)) {
      Measurement measurement;
      measurement.status = measure_status(m.measurement.status);
      measurement.median_us = m.measurement.median_us.value_or(0);
      measurement.iqr_us = m.measurement.iqr_us.value_or(0);
      measurement.count = static_cast<int>(m.measurement.count);
      measurement.max_rel_error = m.measurement.max_rel_error.value_or(0);
      measurement.message = m.measurement.message;
      previous_[m.candidate.config_key] = measurement;
    }
  }

  void planned(int total) override {
    planned_ = total;
    control_.progress(done_, planned_, std::nullopt);
  }

  void finished_one(const CandidateOutcome& c) override {
    CandidateRecord record;
    record.job_id = job_.id;
    record.workload_id = workload_id_;
    record.kernel = kernel_;
    record.dtype = to_string(dtype_);
    if (parts_.measurer) record.device_id = parts_.device_id;
    record.config = c.config_key.empty() ? nlohmann::json::object() : find_family(kernel_)->space().to_json(c.config);
    record.config_key = c.config_key;
    if (c.kernel) record.kernel_key = c.kernel->key;
    record.predicted_us = c.prediction.time_us;
    const int64_t candidate_id = CandidateRepository(parts_.db).add(record);
    if (c.measurement && !previous_.count(c.config_key)) {
      MeasurementRecord m;
      m.candidate_id = candidate_id;
      m.status = stored_status(c);
      if (c.measured_ok()) {
        m.median_us = c.measurement->median_us;
        m.iqr_us = c.measurement->iqr_us;
        m.max_rel_error = c.measurement->max_rel_error;
      }
      m.count = c.measurement->count;
      m.message = c.measurement->message;
      m.hot = hot_;
      MeasurementRepository(parts_.db).add(m);
    }
    ++done_;
    if (c.kernel && c.kernel->ok) {
      const double t = c.measured_ok() ? c.measurement->median_us : c.prediction.time_us;
      if (!best_time_ || t < *best_time_) {
        best_time_ = t;
        best_ = nlohmann::json{{"config_key", c.config_key},
                               {"predicted_us", c.prediction.time_us},
                               {"measured_us", c.measured_ok() ? nlohmann::json(c.measurement->median_us) : nlohmann::json()}};
      }
    }
    control_.progress(done_, planned_, best_);
  }

  bool cancelled() override { return control_.cancelled(); }

  std::optional<std::vector<VendorTiming>> previous_vendor() override {
    if (!vendor_.is_array()) return std::nullopt;
    std::vector<VendorTiming> timings;
    for (const nlohmann::json& v : vendor_) {
      Measurement m;
      m.status = MeasureStatus::Ok;
      m.median_us = v.at("median_us").get<double>();
      m.iqr_us = v.at("iqr_us").get<double>();
      m.count = v.at("count").get<int>();
      timings.push_back({v.at("name").get<std::string>(), m});
    }
    return timings;
  }

  std::optional<Measurement> previous_finalist(const std::string& config_key, int round) override {
    if (!finalists_.contains(config_key) || round >= static_cast<int>(finalists_[config_key].size())) return std::nullopt;
    const nlohmann::json& j = finalists_[config_key][static_cast<size_t>(round)];
    Measurement m;
    m.status = j.at("ok").get<bool>() ? MeasureStatus::Ok : MeasureStatus::Fault;
    m.median_us = j.at("median_us").get<double>();
    m.iqr_us = j.at("iqr_us").get<double>();
    m.count = j.at("count").get<int>();
    return m;
  }

  void finalist_measured(const std::string& config_key, int round, const Measurement& m) override {
    nlohmann::json& rounds = finalists_[config_key];
    if (static_cast<int>(rounds.size()) != round) return;  // rounds are recorded in order
    rounds.push_back({{"ok", m.status == MeasureStatus::Ok}, {"median_us", m.median_us}, {"iqr_us", m.iqr_us}, {"count", m.count}});
    control_.search_state(state());
  }

  double previous_elapsed_seconds() override { return elapsed_before_; }

  // Committed as soon as measured: the baselines table, and the job's state for a restart.
  void vendor_measured(const std::vector<VendorTiming>& timings) override {
    vendor_ = nlohmann::json::array();
    for (const VendorTiming& v : timings) {
      if (v.measurement.status != MeasureStatus::Ok) continue;
      BaselineRecord b;
      b.workload_id = workload_id_;
      b.device_id = parts_.device_id;
      b.kernel = kernel_;
      b.dtype = to_string(dtype_);
      b.vendor = v.name;
      b.median_us = v.measurement.median_us;
      b.iqr_us = v.measurement.iqr_us;
      b.count = v.measurement.count;
      BaselineRepository(parts_.db).add(b);
      vendor_.push_back({{"name", v.name}, {"median_us", b.median_us}, {"iqr_us", b.iqr_us}, {"count", b.count}});
    }
    control_.search_state(state());
  }

  void progress(const TuneProgress& p) override {
    auto optional = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); };
    progress_ = {{"phase", p.phase},
                 {"measured", p.measured},
                 {"best_us", optional(p.best_us)},
                 {"best_config", p.best_config.empty() ? nlohmann::json() : nlohmann::json(p.best_config)},
                 {"vendor_us", optional(p.vendor_us)},
                 {"elapsed_s", p.elapsed_s},
                 {"eta_s", optional(p.eta_s)},
                 {"stop", p.stop_reason.empty() ? nlohmann::json() : nlohmann::json(p.stop_reason)}};
    control_.search_state(state());
    // The search's counts include the finalists' re-measurements: show them, not the first plan.
    done_ = p.measured;
    planned_ = std::max(p.planned, p.measured);
    control_.progress(done_, planned_, std::nullopt);
  }

  std::optional<Measurement> previous_measurement(const std::string& config_key) override {
    auto it = previous_.find(config_key);
    if (it == previous_.end()) return std::nullopt;
    return it->second;
  }

 private:
  // The job's search state: the seed (replay), the vendor baseline, the latest progress, the
  // finalists' re-measurements.
  nlohmann::json state() const {
    nlohmann::json s{{"seed", seed_}};
    if (!vendor_.is_null()) s["vendor"] = vendor_;
    if (!progress_.is_null()) s["progress"] = progress_;
    if (!finalists_.empty()) s["finalists"] = finalists_;
    return s;
  }

  ServiceParts& parts_;
  const JobRecord& job_;
  JobControl& control_;
  int64_t workload_id_;
  std::string kernel_;
  Dtype dtype_;
  bool hot_;
  uint64_t seed_;
  int64_t done_ = 0, planned_ = 0;
  std::optional<double> best_time_;
  std::optional<nlohmann::json> best_;
  std::map<std::string, Measurement> previous_;
  nlohmann::json vendor_;    // null until measured (or restored)
  nlohmann::json progress_;  // null until the first report
  nlohmann::json finalists_ = nlohmann::json::object();  // config key -> re-measurements by round
  double elapsed_before_ = 0;  // wall seconds an interrupted run of this job already spent
};

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
  device_fingerprint = ktune::device_fingerprint(device, NvrtcCompiler::version(), templates_hash());
  device_id = DeviceRepository(db).upsert(device_fingerprint, device.present ? device.name : "model-only " + gpu.arch,
                                          device.present ? device.to_json() : nlohmann::json{{"arch", gpu.arch}});
  use_stored_calibration(*this);
  TunerContext tc;
  tc.compile_cache = &compile_cache;
  tc.compile_pool = &compile_pool;
  tc.gpu = gpu;
  tc.measurer = measurer.get();
  tc.log = [](const std::string& m) { log(LogLevel::Warn, m); };
  tuner = std::make_unique<Tuner>(tc);
  for (const ReportRow& row : ResultRepository(db).list_report())
    lookup.remember({row.result.kernel, row.result.dtype, row.device.fingerprint, row.workload.signature,
                     row.workload.vector, row.result.answer});
  if (const DamagedRows damaged = damaged_rows_seen(); damaged.count > 0)
    log(LogLevel::Warn, "database " + c.db_path + ": skipped " + std::to_string(damaged.count) +
                            " damaged rows (the first: " + damaged.first + "); the rest is served");
}

Service::Service(const ServerConfig& config) : parts_(std::make_unique<ServiceParts>(config)) {
  ServiceParts& p = *parts_;
  auto runner = [&p](const JobRecord& job, JobControl& control) -> nlohmann::json {
    const TuneFields t = parse_tune_request(job.request);
    const std::string kernel = t.family->name(), dtype = to_string(t.dtype);
    ResolvedWorkload resolved = p.resolver.load(t.workload);
    const Workload& w = resolved.workload;
    const Signature sig = compute_signature(w.matrix, w.kind);
    // An upload was named when it was stored (its file name): keep that name.
    const std::string description = t.workload.contains("upload") ? "" : resolved.description;
    const int64_t workload_id = store_workload(p.db, sig, w.kind, w.matrix, description);
    if (!t.force) {
      if (auto hit = p.lookup.exact(kernel, dtype, p.device_fingerprint, sig.exact))
        return relabel(hit->answer, "exact", 0, nullptr);
    }
    TuneRequest request;
    request.family = t.family;
    request.dtype = t.dtype;
    request.budget = t.budget;
    request.hot = t.hot;
    request.target_speedup = t.target_speedup;
    request.seed = search_seed(job);
    JobObserver observer(p, job, control, workload_id, kernel, t.dtype, t.hot, request.seed);
    const TuneOutcome outcome = p.tuner->run(w, request, observer);
    if (control.cancelled()) return nullptr;
    if (!outcome.best) throw std::runtime_error("no configuration of " + kernel + " compiled and verified");
    const AnswerContext context{p.tuner.get(), p.device_fingerprint, NvrtcCompiler::version(), job.id};
    nlohmann::json answer = build_tune_answer(*t.family, w, sig, t.dtype, outcome, context);

    nlohmann::json vendor = nlohmann::json::array();  // stored as baselines when measured (JobObserver)
    for (const VendorTiming& v : outcome.vendor) {
      if (v.measurement.status != MeasureStatus::Ok) continue;
      vendor.push_back({{"name", v.name}, {"median_us", v.measurement.median_us}});
    }
    ResultRecord r;
    r.workload_id = workload_id;
    r.kernel = kernel;
    r.dtype = dtype;
    r.device_id = p.device_id;
    r.config = answer["parameters"];
    r.answer = answer;
    r.source = outcome.measured ? ResultSource::Measured : ResultSource::Model;
    r.predicted_us = outcome.best->prediction.time_us;
    if (outcome.best->measured_ok()) r.measured_us = outcome.best->measurement->median_us;
    if (!vendor.empty()) r.vendor = vendor;
    r.provenance = answer["provenance"];
    r.job_id = job.id;
    ResultRepository(p.db).upsert(r);
    p.lookup.remember({kernel, dtype, p.device_fingerprint, sig.exact, sig.vector, answer});
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
  malloc_trim(0);  // the text's entries and the CSR are freed: give the memory back now
  return {{"id", id}, {"signature", sig.exact}, {"features", sig.to_json()}, {"rows", rows}, {"cols", cols}, {"nnz", nnz}};
}

TuneReply Service::tune(const nlohmann::json& request) {
  ServiceParts& p = *parts_;
  const TuneFields t = parse_tune_request(request);
  p.resolver.validate(t.workload);
  const std::string kernel = t.family->name(), dtype = to_string(t.dtype);

  // An upload's signature is known without loading it: a stored answer comes back at once.
  if (t.workload.contains("upload")) {
    const std::string id = t.workload["upload"].get<std::string>();
    if (!UploadRepository(p.db).touch(id)) throw NotFoundError("no uploaded matrix '" + id + "' (POST /v1/matrices first)");
  }
  if (!t.force && t.workload.contains("upload")) {
    std::optional<UploadRecord> upload = UploadRepository(p.db).get(t.workload["upload"].get<std::string>());
    if (!upload) throw NotFoundError("no uploaded matrix '" + t.workload["upload"].get<std::string>() + "'");
    if (auto w = WorkloadRepository(p.db).get(upload->workload_id))
      if (auto hit = p.lookup.exact(kernel, dtype, p.device_fingerprint, w->signature))
        return {200, relabel(hit->answer, "exact", 0, nullptr)};
  }
  nlohmann::json budget = {{"measurements", t.budget.measurements}, {"seconds", t.budget.seconds},
                           {"compiles", t.budget.model_compiles}, {"patience", t.budget.patience}};
  if (t.target_speedup) budget["target_speedup"] = *t.target_speedup;
  const std::string dedup_key = sha256_hex(kernel + '\n' + dtype + '\n' + p.resolver.canonical(t.workload) + '\n' +
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

nlohmann::json Service::lookup(const std::string& kernel, const std::string& signature, const std::string& dtype_text,
                               const std::string& device, const std::string& features) {
  ServiceParts& p = *parts_;
  const KernelFamily& family = family_named(kernel);
  const std::string dtype = to_string(dtype_from_string(dtype_text));
  const std::string fingerprint = device.empty() ? p.device_fingerprint : device;
  if (auto hit = p.lookup.exact(kernel, dtype, fingerprint, signature)) return relabel(hit->answer, "exact", 0, nullptr);

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
  if (!vector.empty())
    if (auto n = p.lookup.nearest(kernel, dtype, fingerprint, vector))
      return relabel(n->stored->answer, "nearest", n->distance, n->stored->signature);
  nlohmann::json answer;
  {
    std::lock_guard<std::mutex> lock(p.defaults_mutex);
    nlohmann::json& cached = p.defaults[kernel + '\n' + dtype + '\n' + fingerprint];
    if (cached.is_null())
      cached = default_answer(family, dtype_from_string(dtype),
                              AnswerContext{p.tuner.get(), fingerprint, NvrtcCompiler::version(), ""});
    answer = cached;
  }
  answer["signature"] = signature;
  return answer;
}

nlohmann::json Service::kernels() const {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : all_families()) {
    const ParameterSpace space = f->space();
    out.push_back({{"name", f->name()},
                   {"description", f->description()},
                   {"workload", kind_name(f->workload_kind())},
                   {"dtypes", {"f32", "f64"}},
                   {"space", space.describe()},
                   {"configurations", space.enumerate().size()}});
  }
  return {{"kernels", out}};
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
