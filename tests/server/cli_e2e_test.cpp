// The ktune CLI against a real ktuned: the exit codes scripts rely on, and readable output.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>

#include "ktuned_process.h"

namespace ktune::testing {
namespace {

struct CliResult {
  int exit_code = -1;
  std::string output;
};

CliResult ktune_cli(const std::string& server, const std::string& args) {
  const std::string command =
      "KTUNE_SERVER=" + server + " " KTUNE_BINARY_DIR "/bin/ktune " + args + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  CliResult r;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

TEST(CliEndToEnd, TuneLookupReportAndExitCodes) {
  KtunedProcess d(fresh_dir("cli"));
  const std::string matrix = std::string(KTUNE_SOURCE_DIR) + "/data/matrices/gemat12.mtx.gz";

  const CliResult missing = ktune_cli(d.address(), "lookup " + matrix + " --kernel spmv --dtype f32");
  EXPECT_EQ(missing.exit_code, 7) << missing.output;

  const CliResult tuned = ktune_cli(d.address(), "tune " + matrix + " --kernel spmv --dtype f32 --budget 2 --wait");
  EXPECT_EQ(tuned.exit_code, 0) << tuned.output;
  EXPECT_NE(tuned.output.find("spmv"), std::string::npos) << tuned.output;

  const CliResult found = ktune_cli(d.address(), "lookup " + matrix + " --kernel spmv --dtype f32");
  EXPECT_EQ(found.exit_code, 0) << found.output;

  const CliResult report = ktune_cli(d.address(), "report");
  EXPECT_EQ(report.exit_code, 0) << report.output;
  EXPECT_NE(report.output.find("gemat12"), std::string::npos) << report.output;

  EXPECT_EQ(ktune_cli(d.address(), "job jnothere").exit_code, 4);
  EXPECT_EQ(ktune_cli(d.address(), "tune /nonexistent.mtx --kernel spmv").exit_code, 2);
  EXPECT_EQ(ktune_cli(d.address(), "frobnicate").exit_code, 2);
  EXPECT_EQ(ktune_cli("127.0.0.1:1", "report").exit_code, 3);
}

}  // namespace
}  // namespace ktune::testing
