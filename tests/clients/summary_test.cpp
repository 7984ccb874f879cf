#include "clients/summary.h"

#include <gtest/gtest.h>

namespace ktune {
namespace {

using nlohmann::json;

bool has(const std::string& text, const std::string& piece) {
  return text.find(piece) != std::string::npos;
}

json answer() {
  return {{"kernel", "spmv"},        {"dtype", "f64"},
          {"signature", "abc123"},   {"schedule", "subwarp"},
          {"parameters", {{"lanes", 8}, {"schedule", "subwarp"}, {"unroll", true}}},
          {"predicted_us", 12.5},    {"measured_us", 10.25},
          {"source", "measured"},    {"match", "nearest"},
          {"distance", 0.5},         {"neighbour", "def456"}};
}

TEST(TuneSummary, NamesScheduleParametersTimeSourceAndMatch) {
  const std::string text = summarize_tune_answer(answer());
  EXPECT_TRUE(has(text, "spmv (f64)")) << text;
  EXPECT_TRUE(has(text, "subwarp")) << text;
  EXPECT_TRUE(has(text, "lanes=8")) << text;
  EXPECT_TRUE(has(text, "unroll=true")) << text;
  EXPECT_TRUE(has(text, "10.25 us measured (predicted 12.50 us)")) << text;
  EXPECT_TRUE(has(text, "measured")) << text;
  EXPECT_TRUE(has(text, "nearest (distance 0.5 to def456)")) << text;
  EXPECT_TRUE(has(text, "abc123")) << text;
}

TEST(TuneSummary, NamesTheBottleneckAndTheFastestVendorAlgorithm) {
  json a = answer();
  a["bottleneck"] = {{"resource", "dram"}, {"kind", "throughput"}};
  a["sensitivity"] = {{"bottleneck", {{"resource", "dram"}, {"kind", "throughput"}, {"elasticity", 0.583}}}};
  const auto vendor = [](const char* name, double us, const char* status) {
    return json{{"name", name}, {"measurement", {{"median_us", us}, {"status", status}}}};
  };
  a["vendor"] = json::array({vendor("cusparse-csr_alg1", 23.6, "ok"), vendor("cusparse-csr_alg2", 19.25, "ok"),
                             vendor("cusparse-broken", 1.0, "fault")});
  a["speedup_vs_vendor"] = 1.8;
  const std::string text = summarize_tune_answer(a);
  EXPECT_TRUE(has(text, "dram throughput-bound (elasticity 0.58)")) << text;
  EXPECT_TRUE(has(text, "cusparse-csr_alg2 19.25 us (ktune 1.80x)")) << text;  // a failed one never counts
}

TEST(TuneSummary, AMeasuredDefaultShowsWhatTuningGained) {
  json a = answer();
  a["default"] = {{"config_key", "schedule=row"}, {"measurement", {{"median_us", 30.5}, {"status", "ok"}}}};
  a["speedup_vs_default"] = 2.44;
  EXPECT_TRUE(has(summarize_tune_answer(a), "30.50 us (tuned 2.44x)")) << summarize_tune_answer(a);
  a["default"]["measurement"]["status"] = "fault";
  EXPECT_FALSE(has(summarize_tune_answer(a), "tuned")) << "a failed default is no baseline";
}

TEST(TuneSummary, AFreshTuneSaysWhereItsTimeWent) {
  json a = answer();
  EXPECT_TRUE(has(summarize_tune_answer(a), "tune time   -")) << "a stored answer has no phases";
  a["phase_seconds"] = {{"rank", 0.42}, {"walk", 6.5}, {"measure", 12.0}};
  const std::string text = summarize_tune_answer(a);
  EXPECT_TRUE(has(text, "measure 12.0 s, rank 0.4 s, walk 6.5 s")) << text;
}

TEST(TuneSummary, APredictionAloneSaysSo) {
  json a = answer();
  a["measured_us"] = nullptr;
  a["match"] = "exact";
  const std::string text = summarize_tune_answer(a);
  EXPECT_TRUE(has(text, "12.50 us predicted")) << text;
  EXPECT_FALSE(has(text, "distance")) << text;
}

TEST(TuneSummary, MissingAndNullFieldsShowAsDashes) {
  const std::string text = summarize_tune_answer({{"kernel", "spmv"}, {"parameters", nullptr}});
  EXPECT_TRUE(has(text, "schedule    -")) << text;
  EXPECT_TRUE(has(text, "parameters  -")) << text;
  EXPECT_TRUE(has(text, "time        -")) << text;
  EXPECT_TRUE(has(text, "bottleneck  -")) << text;
  EXPECT_TRUE(has(text, "vendor      -")) << text;
  EXPECT_EQ(summarize_tune_answer(nullptr), "-\n");
}

TEST(UploadSummary, ShowsIdSizeAndSignature) {
  const std::string text = summarize_upload(
      {{"id", "m1"}, {"signature", {{"exact", "abc"}}}, {"rows", 5}, {"cols", 7}, {"nnz", 11}});
  EXPECT_TRUE(has(text, "m1")) << text;
  EXPECT_TRUE(has(text, "5 x 7, 11 nonzeros")) << text;
  EXPECT_TRUE(has(text, "abc")) << text;
}

TEST(JobSummary, ShowsProgressErrorAndBest) {
  const std::string failed = summarize_job(
      {{"id", "j1"}, {"state", "failed"}, {"progress", {{"done", 2}, {"planned", 8}}},
       {"error", "out of memory"}, {"best", nullptr}});
  EXPECT_TRUE(has(failed, "j1")) << failed;
  EXPECT_TRUE(has(failed, "failed: 2/8 done")) << failed;
  EXPECT_TRUE(has(failed, "out of memory")) << failed;
  const std::string done = summarize_job({{"id", "j2"}, {"state", "done"}, {"best", answer()}});
  EXPECT_TRUE(has(done, "lanes=8")) << done;
  EXPECT_FALSE(has(done, "error")) << done;
}

TEST(KernelsSummary, OneLinePerFamily) {
  const std::string text = summarize_kernels(
      {{"kernels", {{{"name", "spmv"}, {"description", "y = A x"}}, {{"name", "gemm"}, {"description", "C = A B"}}}}});
  EXPECT_TRUE(has(text, "spmv       y = A x\n")) << text;
  EXPECT_TRUE(has(text, "gemm       C = A B\n")) << text;
}

}  // namespace
}  // namespace ktune
