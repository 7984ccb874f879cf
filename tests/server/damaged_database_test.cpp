// A damaged database: a damaged row is skipped and named, the rest is served; damage below
// the rows stops the start with a message that names the file, not kilobytes of its content.
#include <gtest/gtest.h>

#include <SQLiteCpp/SQLiteCpp.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "ktuned_process.h"

namespace ktune::testing {
namespace {

using nlohmann::json;

json tune(KtunedProcess& d, int n) {
  const json request = {{"kernel", "spmv"}, {"workload", {{"generator", "stencil2d"}, {"n", n}}},
                        {"budget", {{"compiles", 1}}}, {"wait", true}};
  auto res = d.client().Post("/v1/tune", request.dump(), "application/json");
  EXPECT_TRUE(res && res->status == 200) << (res ? res->body : "no answer");
  return json::parse(res->body);
}

TEST(DamagedDatabase, ADamagedAnswerIsSkippedAndTheRestServed) {
  const auto dir = fresh_dir("bad-row");
  std::string kept_signature;
  {
    KtunedProcess d(dir);
    tune(d, 20);
    kept_signature = tune(d, 21)["signature"];
  }
  {
    SQLite::Database db((dir / "ktune.db").string(), SQLite::OPEN_READWRITE);
    EXPECT_EQ(db.exec("UPDATE results SET answer = substr(answer, 1, 200) WHERE id = (SELECT min(id) FROM results)"), 1);
  }
  KtunedProcess d(dir);
  auto hit = d.client().Get("/v1/configs?kernel=spmv&dtype=f32&signature=" + kept_signature);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, 200);
  EXPECT_EQ(json::parse(hit->body)["match"], "exact");
  EXPECT_NE(d.client().Get("/metrics")->body.find("ktune_database_damaged_rows 1"), std::string::npos);
  const std::string log = d.log();
  EXPECT_NE(log.find("skipped 1 damaged rows"), std::string::npos) << log;
  EXPECT_NE(log.find("column 'answer'"), std::string::npos) << log;
  EXPECT_LT(log.size(), 2000u) << "the log names the damage without quoting it";
}

TEST(DamagedDatabase, DamagedPagesStopTheStartNamingTheFile) {
  const auto dir = fresh_dir("bad-pages");
  {
    KtunedProcess d(dir);
    for (int n = 20; n < 26; ++n) tune(d, n);
  }
  const auto file = dir / "ktune.db";
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    const auto size = std::filesystem::file_size(file);
    ASSERT_GT(size, 64u * 1024);
    for (size_t at = 4096 * 2; at + 4096 < size; at += 4096 * 3) {
      f.seekp(static_cast<std::streamoff>(at + 100));
      f << std::string(512, '\x5a');
    }
  }
  try {
    KtunedProcess d(dir);
    FAIL() << "started on a damaged database";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(file.string()), std::string::npos) << message;
    EXPECT_NE(message.find("is damaged"), std::string::npos) << message;
    EXPECT_NE(message.find("another --db"), std::string::npos) << message;
    EXPECT_LT(message.size(), 2000u) << message;
  }
}

}  // namespace
}  // namespace ktune::testing
