// Bad input gets a clear 4xx and the daemon keeps serving, with what it stored intact.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "ktuned_process.h"

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
  expect_error(tune(R"({"kernel":"spmv","workload":{"path":"absent.mtx"},"wait":true})"), 404, "absent.mtx");
}

}  // namespace
}  // namespace ktune::testing
