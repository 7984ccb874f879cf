// Every registered family tunes through ktuned, model-only, with its default problem: the
// conformance suite's last check (tests/conformance), end to end over HTTP.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "kernels/kernel_family.h"
#include "ktuned_process.h"

namespace ktune::testing {
namespace {

using nlohmann::json;

std::vector<std::string> family_names() {
  std::vector<std::string> names;
  for (const auto& f : all_families()) names.push_back(f->name());
  return names;
}

class FamilyTune : public ::testing::TestWithParam<std::string> {
 protected:
  static void SetUpTestSuite() { daemon_ = new KtunedProcess(fresh_dir("family-tune")); }
  static void TearDownTestSuite() {
    delete daemon_;
    daemon_ = nullptr;
  }
  static KtunedProcess* daemon_;
};
KtunedProcess* FamilyTune::daemon_ = nullptr;

TEST_P(FamilyTune, AModelOnlyTuneAnswersAndIsStoredUnderItsProblem) {
  const KernelFamily& family = *find_family(GetParam());
  const Precision precision = family.precisions().front();
  json request = {{"kernel", family.name()},
                  {"dtype", to_string(precision)},
                  {"budget", {{"compiles", 3}}},
                  {"wait", true}};
  // A dense family's workload is its problem's shape: it takes none.
  const bool dense = family.workload_kind() == WorkloadKind::Dense;
  if (!dense)
    request["workload"] = {{"generator", "uniform"}, {"rows", 3000}, {"cols", 2000}, {"per_row", 7}, {"seed", 5}};
  auto res = daemon_->client().Post("/v1/tune", request.dump(), "application/json");
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  const json answer = json::parse(res->body);
  EXPECT_EQ(answer["family"], family.name());
  EXPECT_EQ(answer["source"], "model");
  EXPECT_EQ(answer["match"], "exact");
  EXPECT_EQ(answer["dtype"], to_string(precision));
  EXPECT_EQ(answer["problem"], family.problem_schema().validate(nullptr));
  EXPECT_EQ(answer["provenance"]["kernel_version"], family_version(family));
  EXPECT_GT(answer["predicted_us"].get<double>(), 0);
  EXPECT_FALSE(answer["launch"].empty());

  const std::string lookup = "/v1/configs?kernel=" + family.name() + "&dtype=" + to_string(precision) +
                             (dense ? "" : "&signature=" + answer["signature"].get<std::string>()) +
                             "&problem=" + httplib::detail::encode_query_param(answer["problem"].dump());
  auto hit = daemon_->client().Get(lookup);
  ASSERT_TRUE(hit);
  ASSERT_EQ(hit->status, 200) << hit->body;
  EXPECT_EQ(json::parse(hit->body)["match"], "exact");
  EXPECT_EQ(json::parse(hit->body)["config_key"], answer["config_key"]);
}

INSTANTIATE_TEST_SUITE_P(EveryFamily, FamilyTune, ::testing::ValuesIn(family_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace ktune::testing
