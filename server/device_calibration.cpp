#include "server/device_calibration.h"

#include <algorithm>
#include <cctype>

#include "db/device_repository.h"
#include "model/calibration/calibrator.h"
#include "server/logging.h"
#include "server/service.h"
#include "server/service_errors.h"
#include "server/service_parts.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

bool same_hardware(const nlohmann::json& a, const nlohmann::json& b) {
  for (const char* key : {"name", "cc_major", "cc_minor", "sms", "clock_khz"})
    if (!a.contains(key) || !b.contains(key) || a.at(key) != b.at(key)) return false;
  return true;
}

// `id`: "this", a device id from GET /v1/devices, or a fingerprint.
DeviceRecord resolve_device(ServiceParts& p, const std::string& id) {
  DeviceRepository devices(p.db);
  const bool numeric = !id.empty() && id.size() < 19 &&
                       std::all_of(id.begin(), id.end(), [](unsigned char c) { return std::isdigit(c); });
  if (id == "this" || numeric) {
    if (auto d = devices.get(id == "this" ? p.device_id : std::stoll(id))) return *d;
  } else {
    for (DeviceRecord& d : devices.list())
      if (d.fingerprint == id) return d;
  }
  throw NotFoundError("no device '" + id + "' (GET /v1/devices lists them; 'this' is this daemon's)");
}

nlohmann::json device_json(const DeviceRecord& d, bool is_this) {
  return {{"id", d.id},
          {"fingerprint", d.fingerprint},
          {"name", d.name},
          {"details", d.details},
          {"this", is_this},
          {"calibration", d.calibration ? *d.calibration : nlohmann::json()}};
}

}  // namespace

std::optional<Calibration> stored_calibration(Database& db, int64_t device_id, const DeviceInfo& device) {
  DeviceRepository devices(db);
  if (auto own = devices.get_calibration(device_id)) return Calibration::from_json(*own);
  if (!device.present) return std::nullopt;
  std::optional<Calibration> found;
  for (const DeviceRecord& d : devices.list())  // in id order: the last match is the newest device
    if (d.calibration && same_hardware(d.details, device.to_json())) found = Calibration::from_json(*d.calibration);
  return found;
}

void use_stored_calibration(ServiceParts& p) {
  if (!p.device.present) return;  // a model-only daemon predicts with the built-in table
  try {
    if (std::optional<Calibration> c = stored_calibration(p.db, p.device_id, p.device)) {
      apply_calibration(p.gpu, *c);
      log_info("predicting with the calibration of " + c->created_at + " (" + c->fingerprint.substr(0, 12) + ")");
    }
  } catch (const InputError& e) {
    log_error(std::string("ignoring the stored calibration: ") + e.what());
  }
}

GpuSpec calibrated_spec(const GpuSpec& current, const Calibration& calibration) {
  GpuSpec next = current;
  apply_calibration(next, calibration);
  return next;
}

nlohmann::json Service::device(const std::string& id) {
  ServiceParts& p = *parts_;
  const DeviceRecord d = resolve_device(p, id);
  nlohmann::json out = device_json(d, d.id == p.device_id);
  if (d.id == p.device_id) out["timing_source"] = p.tuner->gpu()->timing_source;
  return out;
}

nlohmann::json Service::calibrate(const std::string& id) {
  ServiceParts& p = *parts_;
  const DeviceRecord d = resolve_device(p, id);
  if (d.id != p.device_id)
    throw ConflictError("device " + id + " (" + d.name +
                        ") is not this daemon's GPU: calibrate it through the ktuned that runs on it");
  if (!p.measurer)
    throw ConflictError("this daemon has no GPU (model-only mode): calibration times microbenchmarks on the "
                        "device; run it through a ktuned on a machine with an NVIDIA GPU");
  std::unique_lock<std::mutex> lock(p.calibration_mutex, std::try_to_lock);
  if (!lock.owns_lock()) throw ConflictError("a calibration of this device is already running; retry when it is done");

  log_info("calibrating " + p.device.name + ": microbenchmarks through the measurement worker");
  const auto compile = [&p](const CompileRequest& r) { return *p.compile_cache.get(r); };
  const auto time = [&p](const CompiledKernel& k, const LaunchPlan& plan, const Microbenchmark&, int64_t) {
    return p.measurer->measure(k, plan, Reference{{"out", {0.0}}}, calibration_measure_options());
  };
  const Calibration c = ktune::calibrate(p.device, p.device_fingerprint, compile, time);
  DeviceRepository(p.db).set_calibration(p.device_id, c.to_json());
  p.metrics.increment("calibrations_total");
  log_info("calibrated " + p.device.name + " at " + std::to_string(c.clock_ghz) + " GHz");
  // Tunes that start from now on predict with it; a running tune keeps the spec it began with.
  p.tuner->set_gpu(calibrated_spec(*p.tuner->gpu(), c));
  nlohmann::json out = device_json(*DeviceRepository(p.db).get(p.device_id), true);
  out["timing_source"] = p.tuner->gpu()->timing_source;
  out["applies"] = "stored; tunes that start from now on predict with it";
  return out;
}

}  // namespace ktune
