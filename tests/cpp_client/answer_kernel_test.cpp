// From an answer to what the client compiles and which buffers the caller gives.
#include <gtest/gtest.h>

#include <algorithm>

#include "clients/cpp/answer_kernel.h"
#include "clients/cpp/plan_buffers.h"
#include "tests/cpp_client/answer_fixture.h"
#include "workload/generators.h"

namespace ktune {
namespace {

using testing::answer_for;


Config spmv_config(const std::string& schedule) {
  const KernelFamily& spmv = *find_family("spmv");
  for (const Config& c : spmv.space(Problem::of(Dtype::F32)).enumerate())
    if (spmv.space(Problem::of(Dtype::F32)).to_json(c).value("schedule", "") == schedule) return c;
  throw std::runtime_error("no " + schedule + " configuration");
}

TEST(AnswerKernel, CompilesTheAnswersOwnSourceForThisDevice) {
  const KernelFamily& spmv = *find_family("spmv");
  const Problem problem = Problem::of(Dtype::F32);
  const Config config = spmv_config("subwarp");
  nlohmann::json answer = answer_for(spmv, problem, config);
  answer["source_code"] = answer["source_code"].get<std::string>() + "\n// as the daemon sent it\n";
  ASSERT_EQ(answer_config(answer, spmv, problem), config);
  const CompileRequest request = compile_request_for(answer, spmv, problem, config, "sm_80");
  EXPECT_EQ(request.code, answer["source_code"]);
  EXPECT_EQ(request.arch, "sm_80");
  EXPECT_EQ(std::count_if(request.options.begin(), request.options.end(),
                          [](const std::string& o) { return o.rfind("--gpu-architecture", 0) == 0; }),
            0);
  EXPECT_EQ(request.options, spmv.source(problem, config).options);
}

TEST(AnswerKernel, RendersLocallyWhatTheAnswerDoesNotDescribe) {
  const KernelFamily& spmv = *find_family("spmv");
  const Problem problem = Problem::of(Dtype::F32);
  const Config config = spmv_config("merge");
  nlohmann::json other_templates = answer_for(spmv, problem, config);
  other_templates["provenance"]["kernel_version"] = "an older daemon's";
  other_templates["source_code"] = "stale";
  EXPECT_EQ(compile_request_for(other_templates, spmv, problem, config, "sm_90").code, spmv.source(problem, config).code);
  // The configuration the plan runs changed (a refused form gave way to the default).
  const Config fallback = spmv.space(problem).first_valid();
  nlohmann::json answer = answer_for(spmv, problem, config);
  answer["source_code"] = "not this configuration's";
  EXPECT_EQ(compile_request_for(answer, spmv, problem, fallback, "sm_90").code, spmv.source(problem, fallback).code);
}

TEST(AnswerKernel, AnArchitectureSpecificKernelCompilesForThisDevicesSpecificArchitecture) {
  const KernelFamily& gemm = *find_family("gemm");
  const Problem problem = make_problem(gemm, {{"m", 256}, {"n", 256}, {"k", 256}, {"layout", "nt"}},
                                       {Dtype::BF16, Dtype::F32, Dtype::F32});
  const ParameterSpace space = gemm.space(problem);
  Config wgmma = space.first_valid(), sync = space.first_valid();
  wgmma["mma"] = 1, wgmma["bm"] = 128, wgmma["bn"] = 128, wgmma["bk"] = 64, wgmma["tm"] = 64, wgmma["tn"] = 128;
  wgmma["stages"] = 4;
  sync["mma"] = 0;
  ASSERT_TRUE(space.valid(wgmma)) << space.violation(wgmma);
  ASSERT_TRUE(space.valid(sync)) << space.violation(sync);
  ASSERT_TRUE(gemm.source(problem, wgmma).arch_specific);
  // From the daemon's answer (sent for sm_90a) and rendered here, on an sm_90 device.
  EXPECT_EQ(compile_request_for(answer_for(gemm, problem, wgmma), gemm, problem, wgmma, "sm_90").arch, "sm_90a");
  EXPECT_EQ(compile_request_for(nullptr, gemm, problem, wgmma, "sm_90").arch, "sm_90a");
  EXPECT_EQ(compile_request_for(answer_for(gemm, problem, sync), gemm, problem, sync, "sm_90").arch, "sm_90");
}

TEST(AnswerKernel, ParametersOutsideTheSpaceAreNoConfiguration) {
  const KernelFamily& spmv = *find_family("spmv");
  EXPECT_FALSE(answer_config({{"parameters", {{"schedule", "warp_of_the_future"}}}}, spmv, Problem::of(Dtype::F32)));
  EXPECT_FALSE(answer_config(nullptr, spmv, Problem::of(Dtype::F32)));
}

std::vector<std::string> operands_of(const std::string& kernel, const nlohmann::json& params) {
  const KernelFamily& family = *find_family(kernel);
  const Problem problem = make_problem(family, params, Precision::uniform(Dtype::F32));
  Workload w;
  w.matrix = generate_banded(300, 4, 1);
  return caller_operands(family, w, problem, family.prepare(w, problem, family.space(problem).first_valid()));
}

TEST(CallerOperands, TheDenseDataOfEachFamilyNotItsMatrix) {
  EXPECT_EQ(operands_of("spmv", nlohmann::json::object()), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(operands_of("spmm", {{"k", 16}}), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(operands_of("sddmm", {{"k", 16}}), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(CallerOperands, AFormOfItsOwnStillTakesTheCallersVectors) {
  const KernelFamily& spmv = *find_family("spmv");
  const Problem problem = Problem::of(Dtype::F32);
  Workload w;
  w.matrix = generate_banded(300, 4, 1);
  for (const char* schedule : {"sell", "adaptive_hot"}) {
    const LaunchPlan plan = spmv.prepare(w, problem, spmv_config(schedule));
    std::vector<std::string> operands = caller_operands(spmv, w, problem, plan);
    std::sort(operands.begin(), operands.end());
    EXPECT_EQ(operands, (std::vector<std::string>{"x", "y"})) << schedule;
  }
}

}  // namespace
}  // namespace ktune
