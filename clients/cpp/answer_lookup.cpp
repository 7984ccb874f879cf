#include "clients/cpp/answer_lookup.h"

#include <sstream>

#include "workload/gzip.h"
#include "workload/matrix_market.h"
#include "workload/signature.h"

namespace ktune {
namespace {

// Status 0 (unreachable) and 5xx are the daemon's trouble, not the request's.
bool daemon_unavailable(const ClientError& e) { return e.http_status == 0 || e.http_status >= 500; }

// The matrix as the daemon reads uploads: Matrix Market, gzip at the fastest level (the
// upload is sent once per matrix, and level 1 is most of the saving).
std::string matrix_upload_bytes(const CsrF64& matrix) {
  std::ostringstream text;
  write_matrix_market(matrix, text);
  return gzip_compress(text.str(), 1);
}

bool dense(const AnswerQuery& q) { return q.workload.kind == WorkloadKind::Dense; }

// Uploads the matrix (a dense problem is its shape: nothing to upload) and submits its tune;
// the job's id, or the answer when the daemon already holds one (a tune that finished since
// the lookup).
nlohmann::json submit_tune(KtuneClient& client, const AnswerQuery& q) {
  nlohmann::json request = {{"kernel", q.family.name()},
                            {"dtype", to_string(q.problem.precision)},
                            {"problem", q.problem.params},
                            {"wait", false}};
  if (!dense(q)) {
    const nlohmann::json upload = client.upload_matrix_bytes(matrix_upload_bytes(q.workload.matrix),
                                                             "client-" + q.signature.substr(0, 12) + ".mtx.gz");
    request["workload"] = {{"upload", upload.at("id")}};
  }
  if (!q.tune_budget.empty()) request["budget"] = q.tune_budget;
  return client.tune(request);
}

}  // namespace

FoundAnswer find_answer(KtuneClient& client, const AnswerQuery& q) {
  FoundAnswer found;
  const std::string kernel = q.family.name(), dtype = to_string(q.problem.precision);
  try {
    found.answer = client.lookup(kernel, q.signature, dtype, std::nullopt, {}, q.problem.params);
    if (found.answer.value("match", "") == "exact") return found;
    // The daemon answers a dense problem's nearest stored shape in the first lookup.
    if (!dense(q)) {
      const std::vector<double> features = compute_signature(q.workload.matrix, q.workload.kind).vector;
      found.answer = client.lookup(kernel, q.signature, dtype, std::nullopt, features, q.problem.params);
    }
  } catch (const ClientError& e) {
    if (!daemon_unavailable(e)) throw;
    found.answer = nullptr;
    found.unavailable = e.http_status == 0 ? e.message
                                           : "ktuned at " + client.host() + ":" + std::to_string(client.port()) +
                                                 " failed (HTTP " + std::to_string(e.http_status) + "): " + e.message;
    return found;
  }
  if (found.answer.value("match", "") != "default" || !q.tune_when_missing) return found;
  try {
    const nlohmann::json reply = submit_tune(client, q);
    if (reply.contains("job")) found.tune_job = reply["job"].get<std::string>();
    else if (reply.contains("source_code")) found.answer = reply;
  } catch (const ClientError& e) {
    found.tune_error = e.message;
  }
  return found;
}

}  // namespace ktune
