#include "server/job_observer.h"

#include <map>

#include "db/baseline_repository.h"
#include "db/candidate_repository.h"
#include "db/measurement_repository.h"

namespace ktune {
namespace {

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
              const KernelFamily& family, const Problem& problem, bool hot, uint64_t seed)
      : parts_(parts), job_(job), control_(control), workload_id_(workload_id),
        kernel_(family.name()), dtype_(to_string(problem.precision)), space_(family.space(problem)), hot_(hot),
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
    record.dtype = dtype_;
    if (parts_.measurer) record.device_id = parts_.device_id;
    record.config = c.config_key.empty() ? nlohmann::json::object() : space_.to_json(c.config);
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
    if (c.same_plan_as.empty()) ++done_;  // a plan measured before adds nothing to the plan's count
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
      b.dtype = dtype_;
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
  std::string dtype_;  // the precision's text
  ParameterSpace space_;
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

}  // namespace

std::unique_ptr<TuneObserver> make_job_observer(ServiceParts& parts, const JobRecord& job, JobControl& control,
                                                int64_t workload_id, const KernelFamily& family, const Problem& problem,
                                                bool hot, uint64_t seed) {
  return std::make_unique<JobObserver>(parts, job, control, workload_id, family, problem, hot, seed);
}

}  // namespace ktune
