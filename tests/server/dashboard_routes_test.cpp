// The dashboard's page and files as ktuned serves them: embedded, each file the page or a
// script names is there with its type, and they are open when the API needs a token.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>

#include "ktuned_process.h"

namespace ktune::testing {
namespace {

// Every /dashboard/ file the page links and every module its scripts import.
std::set<std::string> referenced_files(httplib::Client& client) {
  std::set<std::string> files, seen;
  const std::regex page_link(R"((?:src|href)="(/dashboard/[^"]+)\")");
  const std::regex module_import(R"(from '\./([^']+)')");
  const std::string page = client.Get("/")->body;
  for (std::sregex_iterator it(page.begin(), page.end(), page_link), end; it != end; ++it) files.insert((*it)[1]);
  for (bool grew = true; grew;) {  // follow imports until no new module turns up
    grew = false;
    for (const std::string& file : std::set<std::string>(files)) {
      if (file.size() < 3 || file.compare(file.size() - 3, 3, ".js") != 0 || !seen.insert(file).second) continue;
      const std::string script = client.Get(file)->body;
      for (std::sregex_iterator it(script.begin(), script.end(), module_import), end; it != end; ++it)
        grew |= files.insert("/dashboard/" + (*it)[1].str()).second;
    }
  }
  return files;
}

TEST(DashboardRoutes, ThePageAndEveryFileItNamesAreServed) {
  KtunedProcess d(fresh_dir("dashboard-routes"));
  httplib::Client client = d.client();
  auto page = client.Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_EQ(page->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_NE(page->get_header_value("Content-Security-Policy").find("default-src 'self'"), std::string::npos);
  EXPECT_NE(page->body.find("<title>ktune</title>"), std::string::npos);
  const std::set<std::string> files = referenced_files(client);
  EXPECT_GE(files.size(), 8u) << "the page, its modules, styles and uPlot";
  for (const std::string& file : files) {
    auto res = client.Get(file);
    ASSERT_TRUE(res) << file;
    EXPECT_EQ(res->status, 200) << file;
    EXPECT_FALSE(res->body.empty()) << file;
    const bool css = file.size() > 4 && file.compare(file.size() - 4, 4, ".css") == 0;
    EXPECT_EQ(res->get_header_value("Content-Type"), css ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8")
        << file;
  }
  auto missing = client.Get("/dashboard/missing.js");
  EXPECT_EQ(missing->status, 404);
  EXPECT_NE(missing->body.find("\"error\""), std::string::npos);
}

TEST(DashboardRoutes, ServedAsEmbeddedNotReadFromTheSourceTree) {
  KtunedProcess d(fresh_dir("dashboard-embedded"));
  std::ifstream source(KTUNE_SOURCE_DIR "/server/dashboard/app.js");
  const std::string on_disk(std::istreambuf_iterator<char>(source), {});
  EXPECT_EQ(d.client().Get("/dashboard/app.js")->body, on_disk) << "rebuild ktuned after editing server/dashboard/";
}

TEST(DashboardRoutes, OpenWithoutTheTokenThatTheApiNeeds) {
  const auto dir = fresh_dir("dashboard-token");
  std::ofstream(dir / "token") << "dashboard-token-0123456789\n";
  KtunedProcess d(dir, {"--auth-token-file", (dir / "token").string()});
  httplib::Client anonymous("127.0.0.1", d.port());
  EXPECT_EQ(anonymous.Get("/")->status, 200);
  EXPECT_EQ(anonymous.Get("/dashboard/app.js")->status, 200);
  EXPECT_EQ(anonymous.Get("/dashboard/missing.js")->status, 401) << "only the embedded files are open";
  EXPECT_EQ(anonymous.Get("/v1/jobs")->status, 401);
  EXPECT_EQ(anonymous.Get("/v1/jobs/jx/candidates")->status, 401);
}

}  // namespace
}  // namespace ktune::testing
