// End to end over HTTP: upload, tune, lookup (exact and nearest), kernels, devices, report, metrics.
#include <gtest/gtest.h>

#include "model/resource.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "ktuned_process.h"
#include "workload/gzip.h"
#include "workload/matrix_market.h"

namespace ktune::testing {
namespace {

using nlohmann::json;

class ApiTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { daemon_ = new KtunedProcess(fresh_dir("api")); }
  static void TearDownTestSuite() {
    delete daemon_;
    daemon_ = nullptr;
  }
  static json post(const std::string& path, const json& body, int expected) {
    auto res = daemon_->client().Post(path, body.dump(), "application/json");
    EXPECT_TRUE(res) << path;
    EXPECT_EQ(res->status, expected) << res->body;
    return json::parse(res->body);
  }
  static json get(const std::string& path, int expected = 200) {
    auto res = daemon_->client().Get(path);
    EXPECT_TRUE(res) << path;
    EXPECT_EQ(res->status, expected) << res->body;
    return json::parse(res->body);
  }
  static json upload(const std::string& body, int expected) {
    auto res = daemon_->client().Post("/v1/matrices", body, "application/octet-stream");
    EXPECT_TRUE(res);
    EXPECT_EQ(res->status, expected) << res->body;
    return json::parse(res->body);
  }
  static KtunedProcess* daemon_;
};
KtunedProcess* ApiTest::daemon_ = nullptr;

json tune_request(const std::string& upload_id) {
  return {{"kernel", "spmv"}, {"dtype", "f32"}, {"workload", {{"upload", upload_id}}},
          {"budget", {{"compiles", 3}}}, {"wait", true}};
}

TEST_F(ApiTest, HealthKernelsDevices) {
  auto res = daemon_->client().Get("/healthz");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  const json kernels = get("/v1/kernels");
  ASSERT_FALSE(kernels["kernels"].empty());
  EXPECT_EQ(kernels["kernels"][0]["name"], "spmv");
  EXPECT_GT(kernels["kernels"][0]["configurations"].get<int>(), 3);
  // What each family takes: its problem parameters (none for SpMV), dtypes, templates' version.
  EXPECT_EQ(kernels["kernels"][0]["problem"], json::object());
  EXPECT_EQ(kernels["kernels"][0]["dtypes"], (json{"f32", "f64"}));
  EXPECT_EQ(kernels["kernels"][0]["version"].get<std::string>().size(), 64u);
  const json devices = get("/v1/devices");
  EXPECT_FALSE(devices["this"]["fingerprint"].get<std::string>().empty());
  EXPECT_EQ(devices["known"].size(), 1u);
  // A fingerprint is an id: a model-only one has spaces, which the path carries escaped.
  const std::string fingerprint = devices["this"]["fingerprint"];
  std::string escaped;
  for (char c : fingerprint) escaped += c == ' ' ? std::string("%20") : std::string(1, c);
  EXPECT_EQ(get("/v1/devices/" + escaped)["fingerprint"], fingerprint);
}

TEST_F(ApiTest, UploadIsIdempotentAndGzipAware) {
  const std::string gz = project_matrix("gemat12.mtx.gz");
  const json first = upload(gz, 201);
  EXPECT_EQ(first["rows"], 4929);
  EXPECT_EQ(first["nnz"], 33111);
  const json again = upload(gunzip_if_compressed(gz, 1 << 30), 200);
  EXPECT_EQ(again["id"], first["id"]);
  EXPECT_EQ(again["signature"], first["signature"]);
}

TEST_F(ApiTest, TuneThenExactLookupThenStoredAnswer) {
  const json up = upload(project_matrix("hammond.mtx.gz"), 201);
  const json answer = post("/v1/tune", tune_request(up["id"]), 200);
  EXPECT_EQ(answer["source"], "model");
  EXPECT_EQ(answer["match"], "exact") << "tuned for this very workload, though only predicted";
  EXPECT_EQ(answer["signature"], up["signature"]);
  EXPECT_EQ(answer["family"], "spmv");
  EXPECT_FALSE(answer["schedule"].get<std::string>().empty());
  EXPECT_NE(answer["source_code"].get<std::string>().find("__global__"), std::string::npos);
  EXPECT_FALSE(answer["entry"].empty());
  EXPECT_FALSE(answer["launch"].empty());
  EXPECT_GT(answer["launch"][0]["grid"][0].get<int>(), 0);
  // The arguments name the format's arrays the kernel reads, then x and y.
  const json& args = answer["launch"][0]["args"];
  ASSERT_GE(args.size(), 3u);
  EXPECT_EQ(args[args.size() - 2]["buffer"], "x");
  EXPECT_EQ(args.back()["buffer"], "y");
  EXPECT_GT(answer["predicted_us"].get<double>(), 0);
  EXPECT_TRUE(answer["measured_us"].is_null());
  EXPECT_GE(answer["preprocessing"]["seconds"].get<double>(), 0.0);
  EXPECT_TRUE(answer["preprocessing"]["pays_back_after_calls"].is_null()) << "nothing measured against a vendor";
  // Why it is fast: the emulator's bottleneck and sensitivity vector of the chosen configuration.
  EXPECT_EQ(answer["prediction_model"], "emulator");
  EXPECT_TRUE(resource_from_name(answer["bottleneck"]["resource"].get<std::string>()).has_value()) << answer["bottleneck"];
  const std::string kind = answer["bottleneck"]["kind"];
  EXPECT_TRUE(kind == "latency" || kind == "throughput") << kind;
  ASSERT_TRUE(answer["sensitivity"].is_object());
  EXPECT_EQ(answer["sensitivity"]["bottleneck"]["resource"], answer["bottleneck"]["resource"]);
  EXPECT_EQ(answer["sensitivity"]["sensitivity"].size(), kResourceCount);
  for (const auto& [resource, s] : answer["sensitivity"]["sensitivity"].items())
    EXPECT_TRUE(s["latency"].is_number() && s["gap"].is_number()) << resource;
  for (const char* field : {"service_version", "nvrtc_version", "device_fingerprint"})
    EXPECT_FALSE(answer["provenance"][field].get<std::string>().empty()) << field;

  const json again = post("/v1/tune", tune_request(up["id"]), 200);
  EXPECT_EQ(again["config_key"], answer["config_key"]);
  EXPECT_EQ(again["provenance"]["job"], answer["provenance"]["job"]) << "a stored answer, not a new tune";

  const std::string sig = up["signature"];
  const json hit = get("/v1/configs?kernel=spmv&dtype=f32&signature=" + sig);
  EXPECT_EQ(hit["config_key"], answer["config_key"]);
  EXPECT_EQ(hit["match"], "exact") << "a model-only answer stored for this exact workload";
  EXPECT_EQ(hit["source"], "model");
  EXPECT_EQ(hit["distance"], 0.0);

  const json other_dtype = get("/v1/configs?kernel=spmv&dtype=f64&signature=" + sig);
  EXPECT_NE(other_dtype["match"], "exact");
}

TEST_F(ApiTest, PerturbedMatrixFindsItsNearestNeighbour) {
  const json up = upload(project_matrix("wathenSmall.mtx.gz"), 201);
  post("/v1/tune", tune_request(up["id"]), 200);

  CsrF64 m = parse_matrix_market(gunzip_if_compressed(project_matrix("wathenSmall.mtx.gz"), 1 << 30), ReadLimits{});
  // Drop the last entry of a few rows: same class of matrix, another exact signature.
  CsrF64 perturbed = m;
  perturbed.col_idx.clear();
  perturbed.values.clear();
  for (int32_t r = 0; r < m.rows; ++r) {
    int32_t end = m.row_ptr[r + 1];
    if (r % 500 == 7 && m.row_length(r) > 1) --end;
    for (int32_t k = m.row_ptr[r]; k < end; ++k) {
      perturbed.col_idx.push_back(m.col_idx[k]);
      perturbed.values.push_back(m.values[k]);
    }
    perturbed.row_ptr[r + 1] = static_cast<int32_t>(perturbed.col_idx.size());
  }
  std::ostringstream text;
  write_matrix_market(perturbed, text);
  const json near = upload(text.str(), 201);
  ASSERT_NE(near["signature"], up["signature"]);
  const std::string sig = near["signature"];
  const json hit = get("/v1/configs?kernel=spmv&dtype=f32&signature=" + sig);
  EXPECT_EQ(hit["match"], "nearest");
  EXPECT_GT(hit["distance"].get<double>(), 0.0);
  EXPECT_EQ(hit["neighbour"], up["signature"]);
}

TEST_F(ApiTest, UnknownWorkloadGetsTheDefault) {
  const json d = get("/v1/configs?kernel=spmv&dtype=f64&signature=0000");
  EXPECT_EQ(d["match"], "default");
  EXPECT_FALSE(d["source_code"].get<std::string>().empty());
}

TEST_F(ApiTest, GeneratorWorkloadTunesAndReportListsIt) {
  const json answer = post("/v1/tune",
                           {{"kernel", "spmv"}, {"dtype", "f64"},
                            {"workload", {{"generator", "stencil2d"}, {"n", 64}}},
                            {"budget", {{"compiles", 2}}}, {"wait", true}},
                           200);
  EXPECT_EQ(answer["dtype"], "f64");
  // A model-only tune: ranking, the emulator over the top candidates, the explanation.
  for (const char* phase : {"rank", "emulate", "explain"}) {
    ASSERT_TRUE(answer["phase_seconds"].contains(phase)) << answer["phase_seconds"].dump();
    EXPECT_GE(answer["phase_seconds"][phase].get<double>(), 0.0);
  }
  const json report = get("/v1/report");
  bool found = false;
  for (const auto& row : report["results"]) found |= row["signature"] == answer["signature"];
  EXPECT_TRUE(found);
  auto text = daemon_->client().Get("/v1/report?format=text");
  ASSERT_TRUE(text);
  EXPECT_NE(text->body.find("workload"), std::string::npos);
  EXPECT_NE(text->body.find("stencil2d"), std::string::npos);
}

// PageRank has no schedule parameter: its stored answer's schedule is null, which the text table
// shows as "-" instead of failing the whole report.
TEST_F(ApiTest, TextReportListsAFamilyWithoutSchedule) {
  post("/v1/tune",
       {{"kernel", "pagerank"}, {"workload", {{"generator", "rmat"}, {"scale", 6}, {"edge_factor", 4}, {"seed", 1}}},
        {"budget", {{"compiles", 2}}}, {"wait", true}},
       200);
  auto text = daemon_->client().Get("/v1/report?format=text");
  ASSERT_TRUE(text);
  EXPECT_EQ(text->status, 200) << text->body;
  EXPECT_NE(text->body.find("pagerank"), std::string::npos) << text->body;
}

TEST_F(ApiTest, MetricsArePrometheusText) {
  get("/v1/kernels");
  auto res = daemon_->client().Get("/metrics");
  ASSERT_TRUE(res);
  EXPECT_NE(res->body.find("# TYPE ktune_http_requests_total counter"), std::string::npos);
  EXPECT_NE(res->body.find("ktune_http_requests_total{route=\"/v1/kernels\",status=\"200\"}"), std::string::npos);
  EXPECT_NE(res->body.find("ktune_http_request_duration_seconds{route=\"/v1/kernels\",quantile=\"0.99\"}"),
            std::string::npos);
}

}  // namespace
}  // namespace ktune::testing
