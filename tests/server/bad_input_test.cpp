// Bad input gets a clear 4xx and the daemon keeps serving, with what it stored intact.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>

#include "ktuned_process.h"
#include "workload/gzip.h"

namespace ktune::testing {
namespace {

using nlohmann::json;

class BadInputTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const auto dir = fresh_dir("bad");
    std::filesystem::create_directories(dir / "data");
    std::ofstream(dir / "data" / "garbage.mtx") << "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n2 x 2.0\n";
    std::ofstream(dir / "secret.mtx") << "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1.0\n";
    daemon_ = new KtunedProcess(dir);
  }
  static void TearDownTestSuite() {
    delete daemon_;
    daemon_ = nullptr;
  }
  // Sends a request and checks the status and that the body names the problem.
  static void expect_error(httplib::Result res, int status, const std::string& needle) {
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, status) << res->body;
    const json body = json::parse(res->body, nullptr, false);
    ASSERT_FALSE(body.is_discarded()) << res->body;
    const std::string message = body.value("error", "");
    EXPECT_NE(message.find(needle), std::string::npos) << message;
    auto health = daemon_->client().Get("/healthz");
    ASSERT_TRUE(health) << "daemon stopped serving";
    EXPECT_EQ(health->status, 200);
  }
  static httplib::Result upload(const std::string& body) {
    return daemon_->client().Post("/v1/matrices", body, "application/octet-stream");
  }
  static httplib::Result tune(const std::string& body) {
    return daemon_->client().Post("/v1/tune", body, "application/json");
  }
  static KtunedProcess* daemon_;
};
KtunedProcess* BadInputTest::daemon_ = nullptr;

TEST_F(BadInputTest, MalformedMatrixMarket) {
  expect_error(upload("%%MatrixMarket matrix coordinate real general\n4 4 3\n1 1 1.0\n2 2 2.0\n"), 400, "line");
  expect_error(upload("this is not a matrix\n"), 400, "line 1");
  expect_error(upload("%%MatrixMarket matrix coordinate real general\n3 3 1\n1 9 1.0\n"), 400, "line 3");
  expect_error(upload(std::string("\x1f\x8b\x08\x00garbage", 12)), 400, "gzip");
  expect_error(upload(""), 400, "empty");
}

TEST_F(BadInputTest, AbsurdDeclaredSizes) {
  expect_error(upload("%%MatrixMarket matrix coordinate real general\n3000000000 3 1\n1 1 1.0\n"), 413, "");
  expect_error(upload("%%MatrixMarket matrix coordinate real general\n5 5 999999999999\n1 1 1.0\n"), 413, "");
  expect_error(tune(R"({"kernel":"spmv","workload":{"generator":"stencil2d","n":1000000000}})"), 413, "");
}

TEST_F(BadInputTest, WrongJson) {
  expect_error(tune("{not json"), 400, "JSON");
  expect_error(tune("[1,2]"), 400, "object");
  expect_error(tune(R"({"dtype":"f32","workload":{"generator":"stencil2d","n":8}})"), 400, "kernel");
  expect_error(tune(R"({"kernel":"gemm9","workload":{"generator":"stencil2d","n":8}})"), 400, "unknown kernel");
  expect_error(tune(R"({"kernel":"spmv","dtype":"f16","workload":{"generator":"stencil2d","n":8}})"), 400, "dtype");
  expect_error(tune(R"({"kernel":"spmv","workload":{"generator":"stencil2d","n":"big"}})"), 400, "n");
  expect_error(tune(R"({"kernel":"spmv","workload":{}})"), 400, "exactly one");
  expect_error(tune(R"({"kernel":"spmv","workload":{"generator":"stencil2d","n":8},"budget":{"measurements":-1}})"),
               400, "measurements");
  expect_error(tune(R"({"kernel":"spmv","workload":{"generator":"stencil2d","n":8},"colour":"red"})"), 400, "colour");
  expect_error(daemon_->client().Get("/v1/configs?kernel=spmv"), 400, "signature");
  // Problems and dtypes are the family's to accept, before anything is loaded.
  expect_error(tune(R"({"kernel":"spmv","problem":{"k":3},"workload":{"generator":"stencil2d","n":8}})"), 400,
               "unknown problem parameter 'k'");
  expect_error(tune(R"({"kernel":"spmv","problem":[1],"workload":{"generator":"stencil2d","n":8}})"), 400, "object");
  expect_error(tune(R"({"kernel":"spmv","dtype":{"input":"f32","accumulate":"f64"},"workload":{"generator":"stencil2d","n":8}})"),
               400, "does not compute in dtype f32:f64:f32 (it takes f32, f64)");
  expect_error(daemon_->client().Get("/v1/configs?kernel=spmv&signature=x&dtype=f32&problem=%7Bk"), 400, "problem");
}

TEST_F(BadInputTest, PathsOutsideTheDataDirAreRefused) {
  expect_error(tune(R"({"kernel":"spmv","workload":{"path":"../secret.mtx"}})"), 403, "escapes");
  expect_error(tune(R"({"kernel":"spmv","workload":{"path":"/etc/passwd"}})"), 403, "relative");
  expect_error(tune(R"({"kernel":"spmv","workload":{"path":"a/../../secret.mtx"}})"), 403, "escapes");
}

TEST_F(BadInputTest, MissingThingsAre404) {
  expect_error(tune(R"({"kernel":"spmv","workload":{"upload":"m0000"},"wait":true})"), 404, "m0000");
  expect_error(daemon_->client().Get("/v1/jobs/jnothere"), 404, "jnothere");
  expect_error(daemon_->client().Get("/v1/nothing"), 404, "no route");
}

TEST_F(BadInputTest, GarbageFileInTheDataDirFailsTheJobWithItsLine) {
  expect_error(tune(R"({"kernel":"spmv","workload":{"path":"garbage.mtx"},"wait":true})"), 400, "line 4");
}

TEST_F(BadInputTest, PathsAreCheckedBeforeAJobIsQueued) {
  // A missing file takes no queue slot: 404 at once, even without waiting.
  expect_error(tune(R"({"kernel":"spmv","workload":{"path":"absent.mtx"}})"), 404, "absent.mtx");
  expect_error(tune(R"({"kernel":"spmv","workload":{"path":")" + std::string(5000, 'a') + R"("}})"), 400,
               "characters");
  expect_error(tune(R"({"kernel":"spmv","workload":{"path":"a/)" + std::string(300, 'b') + R"("}})"), 400, "name of 300");
  expect_error(tune(R"({"kernel":"spmv","workload":{"path":"garbage.mtx\u0000.png"}})"), 400, "NUL");
}

TEST_F(BadInputTest, DeepNestingIsRefusedBeforeParsing) {
  std::string nested;
  for (int i = 0; i < 100000; ++i) nested += R"({"a":)";
  nested += "1" + std::string(100000, '}');
  expect_error(tune(nested), 400, "nests");
  expect_error(tune(R"({"kernel":"spmv","workload":{"generator":"stencil2d","n":8,"x":)" + nested + "}}"), 400, "nests");
  expect_error(tune(std::string(100000, '[') + std::string(100000, ']')), 400, "nests");
}

TEST_F(BadInputTest, InvalidUtf8IsA4xxWithValidJsonAndCounted) {
  const std::string before = daemon_->client().Get("/metrics")->body;
  expect_error(upload("%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 \xff\xfe\n"), 400, "line 3");
  expect_error(upload("%%MatrixMarket matrix \xff coordinate real\n3 3 1\n1 1 1\n"), 400, "line 1");
  expect_error(daemon_->client().Get("/v1/configs?kernel=%FF&signature=x&dtype=f32"), 400, "unknown kernel");
  expect_error(daemon_->client().Get("/v1/configs?kernel=spmv&signature=x&dtype=%C3%28"), 400, "dtype");
  const std::string after = daemon_->client().Get("/metrics")->body;
  const std::string counter = "ktune_http_requests_total{route=\"/v1/matrices\",status=\"400\"}";
  EXPECT_NE(after.find(counter), std::string::npos) << after;
  EXPECT_EQ(after.find("status=\"500\""), std::string::npos) << after;
}

TEST_F(BadInputTest, ATinyUploadDeclaringAHugeMatrixIsRefusedAtOnce) {
  const auto start = std::chrono::steady_clock::now();
  const std::string tiny = "%%MatrixMarket matrix coordinate real general\n268435456 268435456 1\n1 1 1.0\n";
  ASSERT_LT(tiny.size(), 80u);
  expect_error(upload(tiny), 413, "--max-rows");
  expect_error(upload("%%MatrixMarket matrix coordinate real general\n16000000 16000000 1\n1 1 1.0\n"), 413,
               "per entry");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

TEST_F(BadInputTest, GzipBombsAreRefusedAfterTheirFirstPiece) {
  const long baseline_kb = daemon_->memory_kb("VmRSS");
  // 4 GB of zeros in about 4 MB: not Matrix Market, refused at its first (overlong) line.
  const std::string zeros = gzip_compress(std::string(size_t{16} << 20, '0'), 9);
  std::string bomb;
  for (int i = 0; i < 256; ++i) bomb += zeros;
  // A valid header and entry, then 4 GB of comment lines.
  const std::string comments = gzip_compress(std::string(size_t{16} << 20, '%').replace(0, 1, "\n"), 9);
  std::string comment_bomb = gzip_compress("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n", 9);
  for (int i = 0; i < 256; ++i) comment_bomb += comments;
  const auto start = std::chrono::steady_clock::now();
  expect_error(upload(bomb), 400, "line 1 is longer");
  expect_error(upload(comment_bomb), 413, "more than 1 entries need");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_LT(daemon_->memory_kb("VmHWM") - baseline_kb, 512L << 10) << "peak RSS above the daemon's baseline";
}

}  // namespace
}  // namespace ktune::testing
