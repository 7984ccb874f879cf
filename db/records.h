#pragma once
// One plain struct per table row. Ids and created_at/updated_at are filled in by the database:
// they are ignored on writes and set on reads. Times are UTC ISO-8601 text.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "db/record_enums.h"

namespace ktune {

struct WorkloadRecord {
  int64_t id = 0;
  std::string signature;  // exact: unique per workload structure
  std::string kind;
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t nnz = 0;
  nlohmann::json features = nlohmann::json::object();
  std::vector<double> vector;  // log-scaled features for nearest-neighbour reuse; finite
  std::string description;
  std::string created_at;
};

// A workload reduced to what nearest-neighbour search compares.
struct WorkloadVector {
  int64_t id = 0;
  std::string signature;
  std::vector<double> vector;
};

struct UploadRecord {
  std::string id;
  int64_t workload_id = 0;
  std::string content;  // gzip Matrix Market bytes
  int64_t bytes = 0;    // content size, set by the database
  std::string created_at;
};

struct DeviceRecord {
  int64_t id = 0;
  std::string fingerprint;
  std::string name;
  nlohmann::json details = nlohmann::json::object();
  std::optional<nlohmann::json> calibration;
  std::string created_at;
};

struct CompiledKernelRecord {
  std::string key;  // SHA-256 of (source, options, arch)
  std::string arch;
  bool ok = false;
  std::string ptx;
  std::string cubin;                                        // binary, may contain NUL bytes
  nlohmann::json lowered_names = nlohmann::json::object();  // entry -> symbol
  nlohmann::json usage = nlohmann::json::object();          // entry -> registers, shared, spills
  std::string log;
  double compile_seconds = 0;
  std::string created_at;
};

struct JobRecord {
  std::string id;
  std::string dedup_key;  // identical requests share one active job
  JobState state = JobState::Queued;
  nlohmann::json request = nlohmann::json::object();
  int64_t progress_done = 0;
  int64_t progress_planned = 0;
  std::optional<nlohmann::json> best;
  std::optional<std::string> error;
  std::optional<nlohmann::json> search_state;
  std::string created_at;
  std::string updated_at;
  int64_t attempts = 0;  // times the job started running
};

struct CandidateRecord {
  int64_t id = 0;
  std::string job_id;
  int64_t workload_id = 0;
  std::string kernel;
  std::string dtype;
  std::optional<int64_t> device_id;  // none in model-only runs
  nlohmann::json config = nlohmann::json::object();
  std::string config_key;                 // canonical text of config, unique within a job
  std::optional<std::string> kernel_key;  // compiled_kernels.key
  std::optional<double> predicted_us;
};

struct MeasurementRecord {
  int64_t id = 0;
  int64_t candidate_id = 0;
  MeasurementStatus status = MeasurementStatus::Ok;
  std::optional<double> median_us;
  std::optional<double> iqr_us;
  int64_t count = 0;
  std::optional<double> max_rel_error;
  std::string message;
  bool hot = false;
  std::string created_at;
};

struct MeasuredCandidate {
  CandidateRecord candidate;
  MeasurementRecord measurement;
};

// A candidate with its latest measurement: none before it is measured, nor in model-only runs.
struct CandidateWithMeasurement {
  CandidateRecord candidate;
  std::optional<MeasurementRecord> measurement;
};

struct BaselineRecord {
  int64_t id = 0;
  int64_t workload_id = 0;
  int64_t device_id = 0;
  std::string kernel;
  std::string dtype;
  std::string vendor;  // e.g. cusparse-csr-alg2
  double median_us = 0;
  double iqr_us = 0;
  int64_t count = 0;
  std::string created_at;
};

struct ResultRecord {
  int64_t id = 0;
  int64_t workload_id = 0;
  std::string kernel;
  std::string problem = "{}";  // canonical JSON of the family's problem parameters
  std::string dtype;           // the precision, "f32" or "input:accumulate:output"
  int64_t device_id = 0;
  std::string kernel_version;  // the family's template hash; '' for answers stored before it
  nlohmann::json config = nlohmann::json::object();
  nlohmann::json answer = nlohmann::json::object();  // the full tune answer
  ResultSource source = ResultSource::Model;
  double predicted_us = 0;
  std::optional<double> measured_us;
  std::optional<nlohmann::json> vendor;
  nlohmann::json provenance = nlohmann::json::object();
  std::optional<std::string> job_id;
  std::string updated_at;
};

// A result with the workload and device it belongs to, for the report.
struct ReportRow {
  ResultRecord result;
  WorkloadRecord workload;
  DeviceRecord device;
};

// A stored result that may answer for a similar workload: its workload's vector decides.
struct NeighbourResult {
  ResultRecord result;
  WorkloadVector workload;
};

}  // namespace ktune
