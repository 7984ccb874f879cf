#pragma once
// ktuned's operations, independent of HTTP: uploads, tunes (through the job manager),
// lookups, reports. http_api.cpp maps routes onto these; tests may call them directly.
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "server/metrics.h"
#include "server/server_config.h"

namespace ktune {

struct ServiceParts;  // the wired components, defined in service_parts.h

struct TuneReply {
  int status = 200;  // 200 answer, 202 accepted (job still running)
  nlohmann::json body;
};

class Service {
 public:
  explicit Service(const ServerConfig& config);
  ~Service();

  // Re-queues the jobs a previous run left unfinished.
  void resume_jobs();
  void shutdown();

  // `name` (the client's file name, may be empty) describes the workload in reports.
  nlohmann::json upload_matrix(const std::string& body, const std::string& name, bool* created);
  // DELETE /v1/matrices/{id}: NotFoundError, or ConflictError while a job names it.
  nlohmann::json delete_upload(const std::string& id);
  TuneReply tune(const nlohmann::json& request);
  nlohmann::json job(const std::string& id);
  nlohmann::json cancel_job(const std::string& id);
  // GET /v1/jobs: newest first; `state` one job state, "active" (queued or running) or empty
  // (all); `limit` the query's text (empty: the default).
  nlohmann::json jobs(const std::string& state, const std::string& limit);
  // GET /v1/jobs/{id}/candidates: every configuration the job tried, in order.
  nlohmann::json job_candidates(const std::string& id);
  // `problem` is the family's parameters as JSON text (empty: its defaults).
  nlohmann::json lookup(const std::string& kernel, const std::string& signature, const std::string& dtype,
                        const std::string& device, const std::string& features, const std::string& problem);
  const nlohmann::json& kernels() const;  // built once: the families are fixed
  nlohmann::json devices();
  // GET /v1/devices/{id} and POST /v1/devices/{id}/calibrate (server/device_calibration.cpp);
  // `id` is "this", a device id or a fingerprint.
  nlohmann::json device(const std::string& id);
  nlohmann::json calibrate(const std::string& id);
  nlohmann::json report();
  std::string report_text();
  std::string metrics_text();
  Metrics& metrics();

 private:
  std::unique_ptr<ServiceParts> parts_;
};

}  // namespace ktune
