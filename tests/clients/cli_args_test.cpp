#include "clients/cli_args.h"

#include <gtest/gtest.h>

namespace ktune {
namespace {

using Args = std::vector<std::string>;

CliArgs parse(const Args& args, const char* env = nullptr) { return parse_args(args, env); }

TEST(CliArgs, UploadTakesOneFile) {
  const CliArgs a = parse({"upload", "m.mtx.gz"});
  EXPECT_EQ(a.command, Command::Upload);
  EXPECT_EQ(a.file, "m.mtx.gz");
  EXPECT_FALSE(a.json);
  EXPECT_TRUE(parse({"upload", "m.mtx", "--json"}).json);
}

TEST(CliArgs, TuneAFileWithEveryOption) {
  const CliArgs a = parse({"tune", "m.mtx", "--kernel", "spmm", "--dtype", "f64", "--wait",
                           "--budget", "32", "--json"});
  EXPECT_EQ(a.command, Command::Tune);
  EXPECT_EQ(a.file, "m.mtx");
  EXPECT_FALSE(a.generator.has_value());
  EXPECT_EQ(a.kernel, "spmm");
  EXPECT_EQ(a.dtype, "f64");
  EXPECT_TRUE(a.wait);
  EXPECT_EQ(a.budget, 32);
  EXPECT_TRUE(a.json);
}

TEST(CliArgs, TuneTakesAProblemAsAJsonObject) {
  const CliArgs a = parse({"tune", "--generator", R"({"generator": "rmat"})", "--kernel", "bfs", "--problem",
                           R"({"sources": [0, 3], "parents": true})"});
  ASSERT_TRUE(a.problem.has_value());
  EXPECT_EQ((*a.problem)["sources"], nlohmann::json::array({0, 3}));
  EXPECT_FALSE(a.dtype_given);
  EXPECT_TRUE(parse({"tune", "m.mtx", "--dtype", "i32"}).dtype_given);
  EXPECT_THROW(parse({"tune", "m.mtx", "--problem", "[0]"}), UsageError);
  EXPECT_THROW(parse({"lookup", "m.mtx", "--problem", "{}"}), UsageError);
}

TEST(CliArgs, TuneADenseKernelByItsShape) {
  const CliArgs a = parse({"tune", "--kernel", "gemm", "--m", "384", "--n", "384", "--k", "16384", "--dtype", "bf16"});
  EXPECT_EQ(a.command, Command::Tune);
  EXPECT_TRUE(a.file.empty());
  EXPECT_FALSE(a.generator.has_value());
  ASSERT_TRUE(a.problem.has_value());
  EXPECT_EQ(*a.problem, (nlohmann::json{{"m", 384}, {"n", 384}, {"k", 16384}}));
  const CliArgs b = parse({"tune", "--kernel", "gemm", "--layout", "nt", "--problem", R"({"m": 8, "layout": "nn"})"});
  EXPECT_EQ(*b.problem, (nlohmann::json{{"m", 8}, {"layout", "nt"}}));  // the field flag wins
  EXPECT_THROW(parse({"tune", "--m", "8", "--generator", R"({"generator": "rmat"})", "m.mtx"}), UsageError);
}

TEST(CliArgs, TuneDefaultsToSpmvF32WithoutWaitOrBudget) {
  const CliArgs a = parse({"tune", "m.mtx"});
  EXPECT_EQ(a.kernel, "spmv");
  EXPECT_EQ(a.dtype, "f32");
  EXPECT_FALSE(a.wait);
  EXPECT_FALSE(a.budget.has_value());
}

TEST(CliArgs, TuneAGeneratorParsesItsJson) {
  const CliArgs a = parse({"tune", "--generator", R"({"generator": "stencil2d", "n": 512})"});
  ASSERT_TRUE(a.generator.has_value());
  EXPECT_EQ((*a.generator)["generator"], "stencil2d");
  EXPECT_EQ((*a.generator)["n"], 512);
  EXPECT_TRUE(a.file.empty());
}

TEST(CliArgs, OptionValuesMayFollowAnEqualsSign) {
  const CliArgs a = parse({"tune", "m.mtx", "--budget=7", "--kernel=spmv", "--server=h:9"});
  EXPECT_EQ(a.budget, 7);
  EXPECT_EQ(a.server.host, "h");
  EXPECT_EQ(a.server.port, 9);
}

TEST(CliArgs, JobAndCancelTakeAnId) {
  const CliArgs job = parse({"job", "job-7", "--wait"});
  EXPECT_EQ(job.command, Command::Job);
  EXPECT_EQ(job.job_id, "job-7");
  EXPECT_TRUE(job.wait);
  const CliArgs cancel = parse({"cancel", "job-8"});
  EXPECT_EQ(cancel.command, Command::Cancel);
  EXPECT_EQ(cancel.job_id, "job-8");
}

TEST(CliArgs, LookupByFileOrSignature) {
  const CliArgs by_file = parse({"lookup", "m.mtx"});
  EXPECT_EQ(by_file.command, Command::Lookup);
  EXPECT_EQ(by_file.file, "m.mtx");
  const CliArgs by_signature =
      parse({"lookup", "--signature", "abc", "--kernel", "spmv", "--dtype", "f64", "--device", "d1"});
  EXPECT_EQ(by_signature.signature, "abc");
  EXPECT_EQ(by_signature.dtype, "f64");
  EXPECT_EQ(by_signature.device, "d1");
  EXPECT_TRUE(by_signature.file.empty());
}

TEST(CliArgs, ReportKernelsAndHelp) {
  EXPECT_EQ(parse({"report"}).command, Command::Report);
  EXPECT_TRUE(parse({"report", "--json"}).json);
  EXPECT_EQ(parse({"kernels"}).command, Command::Kernels);
  EXPECT_EQ(parse({"--help"}).command, Command::Help);
  EXPECT_EQ(parse({"-h"}).command, Command::Help);
  EXPECT_EQ(parse({"tune", "--help"}).command, Command::Help);
}

TEST(CliArgs, ServerComesFromTheFlagThenTheEnvironmentThenTheDefault) {
  const CliArgs fallback = parse({"report"});
  EXPECT_EQ(fallback.server.host, "127.0.0.1");
  EXPECT_EQ(fallback.server.port, 8077);
  const CliArgs from_env = parse({"report"}, "gpu-box:9000");
  EXPECT_EQ(from_env.server.host, "gpu-box");
  EXPECT_EQ(from_env.server.port, 9000);
  const CliArgs from_flag = parse({"--server", "other:1234", "report"}, "gpu-box:9000");
  EXPECT_EQ(from_flag.server.host, "other");
  EXPECT_EQ(from_flag.server.port, 1234);
  EXPECT_EQ(parse({"report"}, "").server.port, 8077);
  // A broken $KTUNE_SERVER does not matter once --server is given.
  EXPECT_EQ(parse({"report", "--server", "h:1"}, "broken").server.port, 1);
}

TEST(CliArgs, ServerAddressAcceptsBracketedIpv6) {
  const ServerAddress a = parse_server_address("[::1]:8077");
  EXPECT_EQ(a.host, "::1");
  EXPECT_EQ(a.port, 8077);
}

struct BadCommandLine {
  Args args;
  const char* says;  // a piece of the message that tells the user what to fix
};

// Names each case by its command line in test listings.
void PrintTo(const BadCommandLine& c, std::ostream* os) {
  *os << "ktune";
  for (const auto& a : c.args) *os << ' ' << a;
}

class CliArgsRejects : public ::testing::TestWithParam<BadCommandLine> {};

TEST_P(CliArgsRejects, WithAMessageThatNamesTheProblem) {
  try {
    parse(GetParam().args);
    FAIL() << "accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(GetParam().says), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    BadArguments, CliArgsRejects,
    ::testing::Values(
        BadCommandLine{{}, "no command"},
        BadCommandLine{{"frobnicate"}, "unknown command 'frobnicate'"},
        BadCommandLine{{"--verbose", "report"}, "unknown option '--verbose'"},
        BadCommandLine{{"upload", "m.mtx", "--wait"}, "unknown option '--wait' for 'upload'"},
        BadCommandLine{{"report", "--kernel", "spmv"}, "unknown option '--kernel'"},
        BadCommandLine{{"upload"}, "needs a FILE"},
        BadCommandLine{{"upload", "a.mtx", "b.mtx"}, "does not take 'b.mtx'"},
        BadCommandLine{{"job"}, "needs a job ID"},
        BadCommandLine{{"cancel"}, "needs a job ID"},
        BadCommandLine{{"report", "extra"}, "does not take 'extra'"},
        BadCommandLine{{"tune"}, "got neither"},
        BadCommandLine{{"tune", "m.mtx", "--generator", R"({"generator": "rmat"})"}, "not both"},
        BadCommandLine{{"tune", "--generator", "{not json"}, "--generator wants a JSON object"},
        BadCommandLine{{"tune", "--generator", "[1, 2]"}, "--generator wants a JSON object"},
        BadCommandLine{{"tune", "m.mtx", "--budget", "0"}, "--budget wants a positive"},
        BadCommandLine{{"tune", "m.mtx", "--budget", "-3"}, "--budget wants a positive"},
        BadCommandLine{{"tune", "m.mtx", "--budget", "lots"}, "--budget wants a positive"},
        BadCommandLine{{"tune", "m.mtx", "--budget"}, "--budget needs a value"},
        BadCommandLine{{"tune", "m.mtx", "--kernel", ""}, "must not be empty"},
        BadCommandLine{{"tune", "m.mtx", "--wait=yes"}, "--wait takes no value"},
        BadCommandLine{{"lookup"}, "got neither"},
        BadCommandLine{{"lookup", "m.mtx", "--signature", "abc"}, "not both"},
        BadCommandLine{{"--server", "localhost", "report"}, "expected host:port"},
        BadCommandLine{{"--server", "h:0", "report"}, "port must be 1..65535"},
        BadCommandLine{{"--server", "h:65536", "report"}, "port must be 1..65535"},
        BadCommandLine{{"--server", "h:http", "report"}, "port must be 1..65535"},
        BadCommandLine{{"--server"}, "--server needs a value"}));

TEST(CliArgs, ABrokenEnvironmentServerIsNamed) {
  try {
    parse({"report"}, "nohost");
    FAIL() << "accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("KTUNE_SERVER"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ktune
