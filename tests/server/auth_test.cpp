// A daemon others can reach requires a bearer token on every route but /healthz; the CLI and
// the C++ client send $KTUNE_TOKEN.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>

#include "clients/ktune_client.h"
#include "ktuned_process.h"

namespace ktune::testing {
namespace {

constexpr const char* kToken = "s3cret-token-0123456789abcdef";

std::filesystem::path token_file(const std::filesystem::path& dir, const std::string& token) {
  const auto path = dir / "token";
  std::ofstream(path) << token << "\n";
  return path;
}

int cli_exit_code(const std::string& server, const std::string& env, const std::string& args) {
  const std::string command = env + " KTUNE_SERVER=" + server + " " KTUNE_BINARY_DIR "/bin/ktune " + args + " >/dev/null 2>&1";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(Auth, AnAddressOthersCanReachNeedsATokenOrInsecure) {
  const auto dir = fresh_dir("auth-refuse");
  try {
    KtunedProcess d(dir, {"--bind", "0.0.0.0"});
    FAIL() << "ktuned started on 0.0.0.0 without a token";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("--auth-token-file"), std::string::npos) << e.what();
  }
  KtunedProcess insecure(fresh_dir("auth-insecure"), {"--bind", "0.0.0.0", "--insecure"});
  EXPECT_EQ(insecure.client().Get("/v1/kernels")->status, 200);
  EXPECT_THROW(KtunedProcess(fresh_dir("auth-short"), {"--auth-token-file", token_file(dir, "short").string()}),
               std::runtime_error);
}

TEST(Auth, WithATokenEveryRouteButHealthNeedsIt) {
  const auto dir = fresh_dir("auth-token");
  KtunedProcess d(dir, {"--bind", "0.0.0.0", "--auth-token-file", token_file(dir, kToken).string()});
  httplib::Client anonymous("127.0.0.1", d.port());
  EXPECT_EQ(anonymous.Get("/healthz")->status, 200);
  for (const char* path : {"/v1/kernels", "/metrics", "/v1/report", "/v1/devices", "/v1/jobs/jx", "/v1/nothing"}) {
    auto res = anonymous.Get(path);
    ASSERT_TRUE(res) << path;
    EXPECT_EQ(res->status, 401) << path;
    EXPECT_NE(nlohmann::json::parse(res->body).value("error", "").find("bearer token"), std::string::npos) << res->body;
  }
  EXPECT_EQ(anonymous.Post("/v1/matrices", "x", "text/plain")->status, 401);
  httplib::Client wrong("127.0.0.1", d.port());
  wrong.set_bearer_token_auth("s3cret-token-0123456789abcdeX");
  EXPECT_EQ(wrong.Get("/v1/kernels")->status, 401);
  httplib::Client right("127.0.0.1", d.port());
  right.set_bearer_token_auth(kToken);
  EXPECT_EQ(right.Get("/v1/kernels")->status, 200);
  EXPECT_NE(right.Get("/metrics")->body.find("route=\"unauthorized\",status=\"401\""), std::string::npos);

  EXPECT_TRUE(KtuneClient("127.0.0.1", d.port(), kToken).kernels().contains("kernels"));
  EXPECT_THROW(KtuneClient("127.0.0.1", d.port(), "").kernels(), ClientError);
  EXPECT_EQ(cli_exit_code(d.address(), std::string("KTUNE_TOKEN=") + kToken, "report"), 0);
  EXPECT_NE(cli_exit_code(d.address(), "KTUNE_TOKEN=", "report"), 0);
}

}  // namespace
}  // namespace ktune::testing
