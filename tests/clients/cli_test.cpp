#include "clients/cli.h"

#include <gtest/gtest.h>

#include <sstream>

#include "clients/exit_codes.h"
#include "fake_ktuned.h"
#include "temp_file.h"

namespace ktune {
namespace {

using nlohmann::json;
using testing::FakeKtuned;
using testing::TempFile;

struct CliRun {
  int status = -1;
  std::string out;
  std::string err;
};

CliRun ktune(std::vector<std::string> args, bool tty = false) {
  std::ostringstream out;
  std::ostringstream err;
  CliIo io{out, err, tty, std::chrono::milliseconds(1)};
  CliRun run;
  run.status = run_ktune(args, nullptr, io);
  run.out = out.str();
  run.err = err.str();
  return run;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool has(const std::string& text, const std::string& piece) {
  return text.find(piece) != std::string::npos;
}

const char* kGenerator = R"({"generator": "stencil2d", "n": 16})";
const char* kMatrix = "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1.0\n2 2 3.0\n";

TEST(Cli, UploadPrintsTheIdAndSendsTheFile) {
  FakeKtuned server;
  TempFile file(kMatrix);
  const CliRun run = ktune({"--server", server.address(), "upload", file.path()});
  EXPECT_EQ(run.status, kExitSuccess) << run.err;
  EXPECT_TRUE(has(run.out, "m1")) << run.out;
  EXPECT_EQ(server.seen().uploads, std::vector<std::string>{kMatrix});
}

TEST(Cli, TuneSendsTheProblemAndLeavesTheDtypeToTheKernelUnlessGiven) {
  FakeKtuned server;
  // The fake daemon knows spmv only: it records the request and refuses it.
  ktune({"--server", server.address(), "tune", "--generator", kGenerator, "--kernel", "bfs", "--problem",
         R"({"sources": [0]})"});
  const json sent = server.seen().last_tune_request;
  EXPECT_EQ(sent["kernel"], "bfs");
  EXPECT_EQ(sent["problem"], (json{{"sources", {0}}}));
  EXPECT_FALSE(sent.contains("dtype")) << sent.dump();
  ASSERT_EQ(ktune({"--server", server.address(), "tune", "--generator", kGenerator, "--dtype", "f64"}).status,
            kExitSuccess);
  EXPECT_EQ(server.seen().last_tune_request["dtype"], "f64");
}

TEST(Cli, TuneWithWaitPollsUntilDoneAndPrintsTheAnswer) {
  FakeKtuned server;
  const CliRun run = ktune({"--server", server.address(), "tune", "--generator", kGenerator, "--wait",
                         "--budget", "6"});
  ASSERT_EQ(run.status, kExitSuccess) << run.err;
  const FakeKtuned::Seen seen = server.seen();
  EXPECT_EQ(seen.last_tune_request["budget"]["measurements"], 6);
  EXPECT_EQ(seen.last_tune_request["workload"], json::parse(kGenerator));
  EXPECT_EQ(seen.last_tune_request["wait"], false);
  // queued, then running from 0 by 2 a poll to 6, then done: 1 + 3 + 1 polls.
  EXPECT_EQ(seen.job_polls, 5);
  EXPECT_TRUE(has(run.out, "subwarp")) << run.out;
  EXPECT_TRUE(has(run.out, "lanes=8")) << run.out;
  EXPECT_TRUE(has(run.out, "12.50 us predicted")) << run.out;
}

TEST(Cli, WithoutATerminalProgressIsOneLinePerStateChange) {
  FakeKtuned server;
  const CliRun run = ktune({"--server", server.address(), "tune", "--generator", kGenerator, "--wait",
                         "--budget", "6"});
  ASSERT_EQ(run.status, kExitSuccess) << run.err;
  const std::vector<std::string> lines = lines_of(run.err);
  ASSERT_EQ(lines.size(), 3u) << run.err;
  EXPECT_EQ(lines[0], "queued: 0/6 done");
  EXPECT_EQ(lines[1].rfind("running: 0/6 done", 0), 0u) << lines[1];
  EXPECT_EQ(lines[2].rfind("done: 6/6 done", 0), 0u) << lines[2];
  EXPECT_FALSE(has(run.err, "\r"));
}

TEST(Cli, OnATerminalProgressIsARedrawnBar) {
  FakeKtuned server;
  const CliRun run = ktune({"--server", server.address(), "tune", "--generator", kGenerator, "--wait",
                         "--budget", "4"},
                        /*tty=*/true);
  ASSERT_EQ(run.status, kExitSuccess) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\r'), server.seen().job_polls);
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << "one newline, after the bar";
  EXPECT_TRUE(has(run.err, "100% 4/4")) << run.err;
  EXPECT_TRUE(has(run.err, "best 12.50 us predicted  done")) << run.err;
}

TEST(Cli, TuneAFileUploadsItAndTunesTheUpload) {
  FakeKtuned server;
  TempFile file(kMatrix);
  const CliRun run = ktune({"--server", server.address(), "tune", file.path()});
  ASSERT_EQ(run.status, kExitSuccess) << run.err;
  const FakeKtuned::Seen seen = server.seen();
  EXPECT_EQ(seen.uploads, std::vector<std::string>{kMatrix});
  EXPECT_EQ(seen.last_tune_request["workload"], (json{{"upload", "m1"}}));
  EXPECT_EQ(seen.job_polls, 0) << "without --wait the CLI does not follow the job";
  EXPECT_TRUE(has(run.out, "job-1")) << run.out;
}

TEST(Cli, JsonPrintsTheRawAnswer) {
  FakeKtuned server;
  const CliRun run = ktune({"--server", server.address(), "tune", "--generator", kGenerator, "--wait", "--json"});
  ASSERT_EQ(run.status, kExitSuccess) << run.err;
  const json printed = json::parse(run.out);
  EXPECT_EQ(printed, FakeKtuned::tune_answer("sha256-of-" + json::parse(kGenerator).dump(), "model"));
}

TEST(Cli, AStoredAnswerComesBackAtOnce) {
  FakeKtuned server;
  ASSERT_EQ(ktune({"--server", server.address(), "tune", "--generator", kGenerator, "--wait"}).status, 0);
  const int polls = server.seen().job_polls;
  const CliRun again = ktune({"--server", server.address(), "tune", "--generator", kGenerator, "--wait"});
  EXPECT_EQ(again.status, kExitSuccess) << again.err;
  EXPECT_EQ(server.seen().job_polls, polls);
  EXPECT_TRUE(has(again.out, "exact")) << again.out;
}

TEST(Cli, ARejectedRequestExits4WithTheServersMessage) {
  FakeKtuned server;
  const CliRun run = ktune({"--server", server.address(), "tune", "--generator", kGenerator, "--kernel", "nope"});
  EXPECT_EQ(run.status, kExitRejected);
  EXPECT_TRUE(has(run.err, "unknown kernel 'nope'; GET /v1/kernels lists them (HTTP 400)")) << run.err;
  EXPECT_EQ(ktune({"--server", server.address(), "job", "job-99"}).status, kExitRejected);
}

TEST(Cli, AServerErrorExits5) {
  FakeKtuned server;
  const CliRun run = ktune({"--server", server.address(), "tune", "--generator", kGenerator, "--kernel", "crashes"});
  EXPECT_EQ(run.status, kExitServerError);
  EXPECT_TRUE(has(run.err, "the job queue is gone (HTTP 500)")) << run.err;
}

TEST(Cli, AnUnreachableServerExits3AndSaysHowToPointAtOne) {
  const std::string address = "127.0.0.1:" + std::to_string(testing::unused_loopback_port());
  const CliRun run = ktune({"--server", address, "report"});
  EXPECT_EQ(run.status, kExitUnreachable);
  EXPECT_TRUE(has(run.err, address)) << run.err;
  EXPECT_TRUE(has(run.err, "KTUNE_SERVER")) << run.err;
}

TEST(Cli, AFailedJobExits6WithItsError) {
  FakeKtuned server;
  const CliRun run = ktune({"--server", server.address(), "tune", "--generator", kGenerator, "--kernel", "fails", "--wait"});
  EXPECT_EQ(run.status, kExitJobFailed);
  EXPECT_TRUE(has(run.err, "job-1 failed: NVRTC could not compile any candidate")) << run.err;
  EXPECT_EQ(ktune({"--server", server.address(), "job", "job-1"}).status, kExitJobFailed);
}

TEST(Cli, ACancelledJobExits6AndCancellingTwiceIsRejected) {
  FakeKtuned server;
  ASSERT_EQ(ktune({"--server", server.address(), "tune", "--generator", kGenerator}).status, 0);
  const CliRun cancel = ktune({"--server", server.address(), "cancel", "job-1"});
  EXPECT_EQ(cancel.status, kExitSuccess) << cancel.err;
  EXPECT_TRUE(has(cancel.out, "job-1 cancelled")) << cancel.out;
  EXPECT_EQ(ktune({"--server", server.address(), "job", "job-1", "--wait"}).status, kExitJobFailed);
  const CliRun again = ktune({"--server", server.address(), "cancel", "job-1"});
  EXPECT_EQ(again.status, kExitRejected);
  EXPECT_TRUE(has(again.err, "already finished")) << again.err;
}

TEST(Cli, JobShowsAJobInProgress) {
  FakeKtuned server;
  ASSERT_EQ(ktune({"--server", server.address(), "tune", "--generator", kGenerator}).status, 0);
  const CliRun run = ktune({"--server", server.address(), "job", "job-1"});
  EXPECT_EQ(run.status, kExitSuccess) << run.err;
  EXPECT_TRUE(has(run.out, "queued: 0/4 done")) << run.out;
}

TEST(Cli, LookupOfNothingStoredExits7) {
  FakeKtuned server;
  const CliRun run = ktune({"--server", server.address(), "lookup", "--signature", "abc"});
  EXPECT_EQ(run.status, kExitNotFound);
  EXPECT_TRUE(has(run.err, "no stored configuration")) << run.err;
}

TEST(Cli, LookupAFileUsesTheSignatureAndFeaturesTheServerComputed) {
  FakeKtuned server;
  TempFile file(kMatrix);
  ASSERT_EQ(ktune({"--server", server.address(), "tune", file.path(), "--wait"}).status, 0);
  const CliRun run = ktune({"--server", server.address(), "lookup", file.path(), "--dtype", "f64"});
  EXPECT_EQ(run.status, kExitSuccess) << run.err;
  const auto query = server.seen().last_lookup_query;
  EXPECT_EQ(query.find("signature")->second, FakeKtuned::signature_of_upload("m1"));
  EXPECT_EQ(query.find("dtype")->second, "f64");
  std::string features;
  for (double f : FakeKtuned::features_of_upload()) {
    features += (features.empty() ? "" : ",") + json(f).dump();
  }
  EXPECT_EQ(query.find("features")->second, features);
  EXPECT_TRUE(has(run.out, "exact")) << run.out;
}

TEST(Cli, ReportAndKernels) {
  FakeKtuned server;
  const CliRun report = ktune({"--server", server.address(), "report"});
  EXPECT_EQ(report.status, kExitSuccess);
  EXPECT_EQ(report.out, "kernel  dtype  predicted_us\nspmv    f32    12.5\n");
  EXPECT_EQ(json::parse(ktune({"--server", server.address(), "report", "--json"}).out)["results"].size(), 1u);
  const CliRun kernels = ktune({"--server", server.address(), "kernels"});
  EXPECT_EQ(kernels.status, kExitSuccess);
  EXPECT_TRUE(has(kernels.out, "spmv")) << kernels.out;
  EXPECT_TRUE(has(kernels.out, "sparse matrix times dense matrix")) << kernels.out;
}

TEST(Cli, AnUnreadableFileIsAUsageError) {
  FakeKtuned server;
  const CliRun run = ktune({"--server", server.address(), "upload", "no/such/file.mtx"});
  EXPECT_EQ(run.status, kExitUsage);
  EXPECT_TRUE(has(run.err, "no/such/file.mtx")) << run.err;
}

TEST(Cli, BadArgumentsExit2WithoutTouchingTheServer) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{}, {"tune"}, {"report", "--bogus"}, {"tune", "x", "--budget", "0"}}) {
    const CliRun run = ktune(args);
    EXPECT_EQ(run.status, kExitUsage);
    EXPECT_TRUE(run.out.empty());
    EXPECT_TRUE(has(run.err, "ktune --help")) << run.err;
  }
}

TEST(Cli, HelpDocumentsEveryExitStatus) {
  const CliRun run = ktune({"--help"});
  EXPECT_EQ(run.status, kExitSuccess);
  for (int status : {kExitSuccess, kExitUsage, kExitUnreachable, kExitRejected, kExitServerError,
                     kExitJobFailed, kExitNotFound}) {
    EXPECT_TRUE(has(run.out, "\n  " + std::to_string(status) + "  ")) << status;
  }
  for (const char* command : {"upload", "tune", "job", "cancel", "lookup", "report", "kernels"}) {
    EXPECT_TRUE(has(run.out, std::string("\n  ") + command + " ")) << command;
  }
}

}  // namespace
}  // namespace ktune
