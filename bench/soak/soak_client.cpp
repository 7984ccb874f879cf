#include "bench/soak/soak_client.h"

#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "bench/soak/json_reply_check.h"
#include "bench/soak/random_pick.h"
#include "bench/soak/upload_mutations.h"
#include "workload/gzip.h"

namespace ktune::soak {
namespace {

using nlohmann::json;

enum class Action {
  UploadPlain,
  UploadGzip,
  UploadMalformed,
  Tune,
  Poll,
  Cancel,
  Lookup,
  Kernels,
  Metrics,
  Healthz,
  Report,
  DeleteMatrix
};

// Weights: uploads and tunes are the load, polls follow the jobs, the rest is what dashboards
// and other clients would ask meanwhile.
const std::vector<std::pair<Action, int>> kWeights = {
    {Action::UploadPlain, 10}, {Action::UploadGzip, 6}, {Action::UploadMalformed, 5}, {Action::Tune, 12},
    {Action::Poll, 10},        {Action::Cancel, 3},     {Action::Lookup, 8},          {Action::Kernels, 3},
    {Action::Metrics, 3},      {Action::Healthz, 5},    {Action::Report, 3},          {Action::DeleteMatrix, 2}};

Action draw(std::mt19937_64& rng) {
  int total = 0;
  for (const auto& [action, weight] : kWeights) total += weight;
  int pick = static_cast<int>(below(rng, static_cast<size_t>(total)));
  for (const auto& [action, weight] : kWeights)
    if ((pick -= weight) < 0) return action;
  return Action::Healthz;
}

bool is_final(const std::string& state) { return state == "done" || state == "failed" || state == "cancelled"; }

json parsed(const Reply& reply) { return reply.answered ? json::parse(reply.body, nullptr, false) : json(); }

}  // namespace

SoakClient::SoakClient(uint64_t seed, const DaemonProcess& daemon, RequestTally& tally, SoakBook& book,
                       const SoakClientSettings& settings)
    : rng_(seed), client_(daemon, tally, settings.timeout_seconds), tally_(tally), book_(book), settings_(settings) {}

void SoakClient::run(const std::atomic<bool>& stop) {
  while (!stop) {
    switch (draw(rng_)) {
      case Action::UploadPlain:
        upload(0);
        break;
      case Action::UploadGzip:
        upload(1);
        break;
      case Action::UploadMalformed:
        upload(2);
        break;
      case Action::Tune:
        tune();
        break;
      case Action::Poll:
        poll();
        break;
      case Action::Cancel:
        cancel();
        break;
      case Action::Lookup:
        lookup();
        break;
      case Action::Kernels:
        plain_get("GET /v1/kernels", "/v1/kernels", true);
        break;
      case Action::Metrics:
        plain_get("GET /metrics", "/metrics", false);
        break;
      case Action::Healthz:
        plain_get("GET /healthz", "/healthz", false);
        break;
      case Action::Report:
        if (below(rng_, 3) == 0)
          plain_get("GET /v1/report", "/v1/report?format=text", false);
        else
          plain_get("GET /v1/report", "/v1/report", true);
        break;
      case Action::DeleteMatrix:
        delete_matrix();
        break;
    }
    if (settings_.think_ms > 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(below(rng_, static_cast<size_t>(2 * settings_.think_ms))));
  }
}

void SoakClient::check(const std::string& route, const std::string& request, const Reply& reply) {
  check_json_reply(tally_, route, request, reply);
}

void SoakClient::upload(int kind) {
  const std::vector<std::string>& pool = *settings_.matrices;
  const size_t index = below(rng_, pool.size());
  std::string body = pool[index], request = "matrix " + std::to_string(index);
  if (kind == 1) {
    body = gzip_compress(body);
    request += " (gzip)";
  }
  if (kind == 2) {
    FuzzedBody fuzzed = fuzz_upload(pool, rng_);
    body = std::move(fuzzed.bytes);
    request = "malformed: " + fuzzed.description;
  }
  const std::string route = "POST /v1/matrices";
  const Reply reply = client_.post(route, "/v1/matrices", body, "application/octet-stream", request);
  check(route, request, reply);
  const json answer = parsed(reply);
  if ((reply.status == 200 || reply.status == 201) && answer.is_object() && answer.contains("id") &&
      answer.contains("signature"))
    book_.add_upload({answer["id"].get<std::string>(), answer["signature"].get<std::string>()});
}

void SoakClient::tune() {
  if (book_.open_jobs() >= settings_.max_open_jobs) return poll();
  // Mostly small grids, whose answers soon come from the store; a quarter new and large (up to
  // a million rows, about a second each), so that restarts find jobs running and queued.
  const int n =
      below(rng_, 4) == 0 ? 200 + static_cast<int>(below(rng_, 825)) : 8 + 4 * static_cast<int>(below(rng_, 11));
  json workload = {{"generator", "stencil2d"}, {"n", n}};
  if (below(rng_, 5) < 3)
    if (const auto upload = book_.any_upload(rng_)) workload = {{"upload", upload->id}};
  json body = {{"kernel", "spmv"}, {"workload", workload}, {"budget", {{"compiles", 2}}}};
  if (below(rng_, 10) < 3) {
    body["wait"] = true;
    body["wait_seconds"] = 2;
  }
  const std::string route = "POST /v1/tune", request = body.dump();
  const Reply reply = client_.post(route, "/v1/tune", request, "application/json", request);
  check(route, request, reply);
  const json answer = parsed(reply);
  if (reply.status != 202 || !answer.is_object() || !answer.contains("job") || !answer["job"].is_string()) return;
  const std::string id = answer["job"].get<std::string>();
  book_.add_job(id);
  // Cancelled at once now and then: a job found queued or running, not only finished ones.
  if (below(rng_, 5) == 0) cancel_job(id);
}

void SoakClient::cancel_job(const std::string& id) {
  const std::string route = "DELETE /v1/jobs/{id}";
  const Reply reply = client_.del(route, "/v1/jobs/" + id);
  check(route, id, reply);
  note_job_state(id, reply);
}

void SoakClient::note_job_state(const std::string& id, const Reply& reply) {
  const json job = parsed(reply);
  if (reply.status == 200 && job.is_object() && job.contains("state") && job["state"].is_string() &&
      is_final(job["state"].get<std::string>()))
    book_.job_finished(id);
}

void SoakClient::poll() {
  auto id = book_.open_job(rng_);
  if (!id) id = book_.any_job(rng_);
  if (!id) return plain_get("GET /healthz", "/healthz", false);
  const std::string route = "GET /v1/jobs/{id}";
  const Reply reply = client_.get(route, "/v1/jobs/" + *id);
  check(route, *id, reply);
  note_job_state(*id, reply);
}

void SoakClient::cancel() {
  const auto id = below(rng_, 10) < 7 ? book_.open_job(rng_) : book_.any_job(rng_);
  if (id) cancel_job(*id);
}

void SoakClient::lookup() {
  std::string signature;
  if (const auto upload = book_.any_upload(rng_); upload && below(rng_, 5) > 0) {
    signature = upload->signature;
  } else {
    static const char* hex = "0123456789abcdef";
    for (int i = 0; i < 64; ++i) signature += hex[below(rng_, 16)];
  }
  const std::string route = "GET /v1/configs", path = "/v1/configs?kernel=spmv&signature=" + signature + "&dtype=f32";
  const Reply reply = client_.get(route, path);
  check(route, path, reply);
}

void SoakClient::delete_matrix() {
  const auto upload = book_.any_upload(rng_);
  if (!upload) return;
  const std::string route = "DELETE /v1/matrices/{id}";
  const Reply reply = client_.del(route, "/v1/matrices/" + upload->id);
  // Until the route exists the daemon answers 404 from its router: still JSON.
  check(route, upload->id, reply);
  if (reply.status == 200 || reply.status == 204) book_.remove_upload(upload->id);
}

void SoakClient::plain_get(const std::string& route, const std::string& path, bool json_route) {
  const Reply reply = client_.get(route, path);
  if (json_route) check(route, path, reply);
}

}  // namespace ktune::soak
