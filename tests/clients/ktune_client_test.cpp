#include "clients/ktune_client.h"

#include <gtest/gtest.h>

#include <functional>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "fake_ktuned.h"
#include "temp_file.h"

namespace ktune {
namespace {

using nlohmann::json;
using testing::FakeKtuned;
using testing::TempFile;

std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const char* kSmallMatrix =
    "%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 1.0\n2 2 2.0\n3 1 -1.5\n3 3 4.0\n";

int http_status_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const ClientError& e) {
    return e.http_status;
  }
  return -1;
}

std::string message_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const ClientError& e) {
    return e.message;
  }
  return "(no error)";
}

TEST(KtuneClient, UploadSendsThePlainFileBytesUnchanged) {
  FakeKtuned server;
  KtuneClient client("127.0.0.1", server.port());
  TempFile file(kSmallMatrix);
  const json upload = client.upload_matrix(file.path());
  ASSERT_EQ(server.seen().uploads.size(), 1u);
  EXPECT_EQ(server.seen().uploads[0], kSmallMatrix);
  EXPECT_EQ(upload["id"], "m1");
  EXPECT_EQ(upload["nnz"], 4);
}

TEST(KtuneClient, UploadSendsAGzipFileAsIs) {
  const std::filesystem::path matrix =
      std::filesystem::path(KTUNE_SOURCE_DIR) / "data" / "matrices" / "hammond.mtx.gz";
  ASSERT_TRUE(std::filesystem::exists(matrix)) << matrix;
  const std::string bytes = read_bytes(matrix);
  ASSERT_GE(bytes.size(), 2u);
  ASSERT_EQ(static_cast<unsigned char>(bytes[0]), 0x1f);

  FakeKtuned server;
  KtuneClient client("127.0.0.1", server.port());
  client.upload_matrix(matrix.string());
  ASSERT_EQ(server.seen().uploads.size(), 1u);
  EXPECT_EQ(server.seen().uploads[0], bytes);
}

TEST(KtuneClient, AnUnreadableFileIsALocalErrorAndSendsNothing) {
  FakeKtuned server;
  KtuneClient client("127.0.0.1", server.port());
  const std::string missing = (std::filesystem::temp_directory_path() / "ktune_no_such_file.mtx").string();
  EXPECT_THROW(client.upload_matrix(missing), FileReadError);
  EXPECT_TRUE(server.seen().uploads.empty());
}

TEST(KtuneClient, TuneSendsTheRequestAndReturnsTheJobTicket) {
  FakeKtuned server;
  KtuneClient client("127.0.0.1", server.port());
  const json request = {{"kernel", "spmv"},
                        {"dtype", "f32"},
                        {"workload", {{"generator", "stencil2d"}, {"n", 64}}},
                        {"wait", false}};
  const json ticket = client.tune(request);
  EXPECT_EQ(server.seen().last_tune_request, request);
  EXPECT_EQ(ticket["job"], "job-1");
  EXPECT_EQ(ticket["state"], "queued");
}

TEST(KtuneClient, JobAndCancelFollowTheJobsState) {
  FakeKtuned server;
  KtuneClient client("127.0.0.1", server.port());
  const std::string id =
      client.tune({{"kernel", "spmv"}, {"dtype", "f32"}, {"workload", {{"generator", "rmat"}}}})["job"];
  EXPECT_EQ(client.job(id)["state"], "queued");
  EXPECT_EQ(client.job(id)["state"], "running");
  EXPECT_EQ(client.cancel(id)["state"], "cancelled");
  EXPECT_EQ(client.job(id)["state"], "cancelled");
}

TEST(KtuneClient, ErrorsCarryTheStatusAndTheServersOwnMessage) {
  FakeKtuned server;
  KtuneClient client("127.0.0.1", server.port());
  EXPECT_EQ(http_status_of([&] { client.job("job-404"); }), 404);
  EXPECT_EQ(message_of([&] { client.job("job-404"); }), "no job 'job-404'");
  EXPECT_EQ(http_status_of([&] { client.tune({{"kernel", "nope"}}); }), 400);
  EXPECT_EQ(message_of([&] { client.tune({{"kernel", "nope"}}); }),
            "unknown kernel 'nope'; GET /v1/kernels lists them");
  EXPECT_EQ(http_status_of([&] { client.tune({{"kernel", "crashes"}}); }), 500);
}

TEST(KtuneClient, CancellingAFinishedJobIsAConflict) {
  FakeKtuned server;
  KtuneClient client("127.0.0.1", server.port());
  const std::string id = client.tune({{"kernel", "spmv"}, {"workload", {{"generator", "rmat"}}},
                                      {"budget", {{"measurements", 2}}}})["job"];
  while (client.job(id)["state"] != "done") {
  }
  EXPECT_EQ(http_status_of([&] { client.cancel(id); }), 409);
}

TEST(KtuneClient, AnUnreachableServerIsStatusZero) {
  const int port = testing::unused_loopback_port();
  KtuneClient client("127.0.0.1", port);
  EXPECT_EQ(http_status_of([&] { client.kernels(); }), 0);
  EXPECT_NE(message_of([&] { client.kernels(); }).find("127.0.0.1:" + std::to_string(port)),
            std::string::npos);
  EXPECT_FALSE(client.healthy());
}

TEST(KtuneClient, LookupSendsEveryQueryParameterIntact) {
  FakeKtuned server;
  KtuneClient client("127.0.0.1", server.port());
  const std::string awkward = "a b&c=d/e?f";
  EXPECT_EQ(http_status_of([&] { client.lookup("spmv", awkward, "f64", "dev 1", {0.5, -2.0}); }), 404);
  const auto query = server.seen().last_lookup_query;
  const auto value = [&](const char* key) {
    const auto it = query.find(key);
    return it == query.end() ? std::string("(absent)") : it->second;
  };
  EXPECT_EQ(value("kernel"), "spmv");
  EXPECT_EQ(value("signature"), awkward);
  EXPECT_EQ(value("dtype"), "f64");
  EXPECT_EQ(value("device"), "dev 1");
  EXPECT_EQ(value("features"), "0.5,-2.0");
}

TEST(KtuneClient, LookupLeavesOutWhatWasNotGiven) {
  FakeKtuned server;
  KtuneClient client("127.0.0.1", server.port());
  EXPECT_THROW(client.lookup("spmv", "abc", "f32"), ClientError);
  const auto query = server.seen().last_lookup_query;
  EXPECT_EQ(query.count("device"), 0u);
  EXPECT_EQ(query.count("features"), 0u);
}

TEST(KtuneClient, ReportKernelsAndHealth) {
  FakeKtuned server;
  KtuneClient client("127.0.0.1", server.port());
  EXPECT_EQ(client.report_text(), "kernel  dtype  predicted_us\nspmv    f32    12.5\n");
  EXPECT_EQ(client.report()["results"].size(), 1u);
  EXPECT_EQ(client.kernels()["kernels"][0]["name"], "spmv");
  EXPECT_TRUE(client.healthy());
}

}  // namespace
}  // namespace ktune
