// Stored uploads are bounded: a full store evicts the least recently used upload that no
// answer needs; clients delete their own with DELETE /v1/matrices/{id}.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ktuned_process.h"

namespace ktune::testing {
namespace {

using nlohmann::json;

std::string diagonal(int n) {
  std::string text = "%%MatrixMarket matrix coordinate real general\n" + std::to_string(n) + " " +
                     std::to_string(n) + " " + std::to_string(n) + "\n";
  for (int i = 1; i <= n; ++i) text += std::to_string(i) + " " + std::to_string(i) + " 1\n";
  return text;
}

json upload(KtunedProcess& d, const std::string& body, int expected) {
  auto res = d.client().Post("/v1/matrices", body, "application/octet-stream");
  EXPECT_TRUE(res);
  EXPECT_EQ(res->status, expected) << res->body;
  return json::parse(res->body);
}

// Starts a tune of the upload and cancels it at once: the upload counts as used, and no
// answer or unfinished job pins it. Returns the tune's status.
int tune_status(KtunedProcess& d, const std::string& upload_id) {
  const json request = {{"kernel", "spmv"}, {"workload", {{"upload", upload_id}}}, {"budget", {{"compiles", 40}}}};
  auto res = d.client().Post("/v1/tune", request.dump(), "application/json");
  if (res->status == 202) d.client().Delete("/v1/jobs/" + json::parse(res->body)["job"].get<std::string>());
  return res->status;
}

TEST(UploadQuota, AFullStoreEvictsTheLeastRecentlyUsed) {
  KtunedProcess d(fresh_dir("quota"), {"--max-uploads", "2"});
  const std::string a = upload(d, diagonal(10), 201)["id"];
  const std::string b = upload(d, diagonal(11), 201)["id"];
  EXPECT_EQ(tune_status(d, a), 202) << "a tune uses a, so b is now the least recently used";
  const std::string c = upload(d, diagonal(12), 201)["id"];
  EXPECT_EQ(tune_status(d, b), 404) << "b was evicted";
  EXPECT_NE(tune_status(d, c), 404);
  const std::string metrics = d.client().Get("/metrics")->body;
  EXPECT_NE(metrics.find("ktune_uploads_evicted_total 1"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("ktune_uploads_stored 2"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("ktune_database_bytes "), std::string::npos) << metrics;
}

TEST(UploadQuota, ClientsDeleteTheirUploads) {
  KtunedProcess d(fresh_dir("quota-delete"));
  const std::string a = upload(d, diagonal(10), 201)["id"];
  auto deleted = d.client().Delete("/v1/matrices/" + a);
  ASSERT_TRUE(deleted);
  EXPECT_EQ(deleted->status, 200) << deleted->body;
  EXPECT_EQ(d.client().Delete("/v1/matrices/" + a)->status, 404);
  EXPECT_EQ(tune_status(d, a), 404);
  // An upload a queued or running job names stays until the job is over.
  const std::string b = upload(d, diagonal(5000), 201)["id"];
  const json busy = {{"kernel", "spmv"}, {"workload", {{"upload", b}}}, {"budget", {{"compiles", 40}}}};
  const std::string job = json::parse(d.client().Post("/v1/tune", busy.dump(), "application/json")->body)["job"];
  EXPECT_EQ(d.client().Delete("/v1/matrices/" + b)->status, 409);
  d.client().Delete("/v1/jobs/" + job);
  EXPECT_EQ(d.client().Delete("/v1/matrices/" + b)->status, 200);
}

}  // namespace
}  // namespace ktune::testing
