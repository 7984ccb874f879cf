#include "db/record_rows.h"

#include <initializer_list>

namespace ktune {

namespace {

std::string column_list(const std::string& alias, std::initializer_list<const char*> names) {
  std::string list;
  for (const char* name : names) {
    if (!list.empty()) list += ", ";
    list += alias + "." + name;
  }
  return list;
}

std::vector<double> vector_from_json(const nlohmann::json& j) {
  return j.get<std::vector<double>>();
}

}  // namespace

// Each list below is read back in the same order by the function after it.

std::string workload_columns(const std::string& alias) {
  return column_list(alias, {"id", "signature", "kind", "rows", "cols", "nnz", "features", "vector",
                             "description", "created_at"});
}

WorkloadRecord read_workload(RowCursor& row) {
  WorkloadRecord w;
  w.id = row.int64();
  w.signature = row.text();
  w.kind = row.text();
  w.rows = row.int64();
  w.cols = row.int64();
  w.nnz = row.int64();
  w.features = row.json();
  w.vector = vector_from_json(row.json());
  w.description = row.text();
  w.created_at = row.text();
  return w;
}

std::string workload_vector_columns(const std::string& alias) {
  return column_list(alias, {"id", "signature", "vector"});
}

WorkloadVector read_workload_vector(RowCursor& row) {
  WorkloadVector v;
  v.id = row.int64();
  v.signature = row.text();
  v.vector = vector_from_json(row.json());
  return v;
}

std::string upload_columns(const std::string& alias) {
  return column_list(alias, {"id", "workload_id", "content", "bytes", "created_at"});
}

UploadRecord read_upload(RowCursor& row) {
  UploadRecord u;
  u.id = row.text();
  u.workload_id = row.int64();
  u.content = row.blob();
  u.bytes = row.int64();
  u.created_at = row.text();
  return u;
}

std::string device_columns(const std::string& alias) {
  return column_list(alias, {"id", "fingerprint", "name", "details", "calibration", "created_at"});
}

DeviceRecord read_device(RowCursor& row) {
  DeviceRecord d;
  d.id = row.int64();
  d.fingerprint = row.text();
  d.name = row.text();
  d.details = row.json();
  d.calibration = row.optional_json();
  d.created_at = row.text();
  return d;
}

std::string compiled_kernel_columns(const std::string& alias) {
  return column_list(alias, {"key", "arch", "ok", "ptx", "cubin", "lowered_names", "usage", "log",
                             "compile_seconds", "created_at"});
}

CompiledKernelRecord read_compiled_kernel(RowCursor& row) {
  CompiledKernelRecord k;
  k.key = row.text();
  k.arch = row.text();
  k.ok = row.boolean();
  k.ptx = row.text();
  k.cubin = row.blob();
  k.lowered_names = row.json();
  k.usage = row.json();
  k.log = row.text();
  k.compile_seconds = row.real();
  k.created_at = row.text();
  return k;
}

std::string job_columns(const std::string& alias) {
  return column_list(
      alias, {"id", "dedup_key", "state", "request", "progress_done", "progress_planned", "best",
              "error", "search_state", "created_at", "updated_at", "attempts"});
}

JobRecord read_job(RowCursor& row) {
  JobRecord j;
  j.id = row.text();
  j.dedup_key = row.text();
  j.state = job_state_from_string(row.text());
  j.request = row.json();
  j.progress_done = row.int64();
  j.progress_planned = row.int64();
  j.best = row.optional_json();
  j.error = row.optional_text();
  j.search_state = row.optional_json();
  j.created_at = row.text();
  j.updated_at = row.text();
  j.attempts = row.int64();
  return j;
}

std::string candidate_columns(const std::string& alias) {
  return column_list(alias, {"id", "job_id", "workload_id", "kernel", "dtype", "device_id",
                             "config", "config_key", "kernel_key", "predicted_us"});
}

CandidateRecord read_candidate(RowCursor& row) {
  CandidateRecord c;
  c.id = row.int64();
  c.job_id = row.text();
  c.workload_id = row.int64();
  c.kernel = row.text();
  c.dtype = row.text();
  c.device_id = row.optional_int64();
  c.config = row.json();
  c.config_key = row.text();
  c.kernel_key = row.optional_text();
  c.predicted_us = row.optional_real();
  return c;
}

std::string measurement_columns(const std::string& alias) {
  return column_list(alias, {"id", "candidate_id", "status", "median_us", "iqr_us", "count",
                             "max_rel_error", "message", "hot", "created_at"});
}

MeasurementRecord read_measurement(RowCursor& row) {
  MeasurementRecord m;
  m.id = row.int64();
  m.candidate_id = row.int64();
  m.status = measurement_status_from_string(row.text());
  m.median_us = row.optional_real();
  m.iqr_us = row.optional_real();
  m.count = row.int64();
  m.max_rel_error = row.optional_real();
  m.message = row.text();
  m.hot = row.boolean();
  m.created_at = row.text();
  return m;
}

std::string baseline_columns(const std::string& alias) {
  return column_list(alias, {"id", "workload_id", "device_id", "kernel", "dtype", "vendor",
                             "median_us", "iqr_us", "count", "created_at"});
}

BaselineRecord read_baseline(RowCursor& row) {
  BaselineRecord b;
  b.id = row.int64();
  b.workload_id = row.int64();
  b.device_id = row.int64();
  b.kernel = row.text();
  b.dtype = row.text();
  b.vendor = row.text();
  b.median_us = row.real();
  b.iqr_us = row.real();
  b.count = row.int64();
  b.created_at = row.text();
  return b;
}

std::string result_columns(const std::string& alias) {
  return column_list(
      alias, {"id", "workload_id", "kernel", "problem", "dtype", "device_id", "kernel_version", "config", "answer",
              "source", "predicted_us", "measured_us", "vendor", "provenance", "job_id", "updated_at"});
}

ResultRecord read_result(RowCursor& row) {
  ResultRecord r;
  r.id = row.int64();
  r.workload_id = row.int64();
  r.kernel = row.text();
  r.problem = row.text();
  r.dtype = row.text();
  r.device_id = row.int64();
  r.kernel_version = row.text();
  r.config = row.json();
  r.answer = row.json();
  r.source = result_source_from_string(row.text());
  r.predicted_us = row.real();
  r.measured_us = row.optional_real();
  r.vendor = row.optional_json();
  r.provenance = row.json();
  r.job_id = row.optional_text();
  r.updated_at = row.text();
  return r;
}

}  // namespace ktune
