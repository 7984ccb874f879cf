// compute_outputs reads integer outputs (BFS depths, component labels) as well as f32 and f64.
#include <gtest/gtest.h>

#include "model/interp/interpreter.h"
#include "model/ptx/ptx_parser.h"
#include "tests/ptx/spmv_ptx_corpus.h"
#include "workload/input_error.h"

namespace ktune::interp {
namespace {

const ptx::PtxModule& offsets_module() {
  static const ptx::PtxModule module = ptx::parse_ptx(testing_support::compile_to_ptx_cached(
      {R"(extern "C" __global__ void offsets(int n, int* out) {
            const int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) out[i] = i - 2;
          })",
       {"offsets"},
       {},
       "compute_90"}));
  return module;
}

LaunchPlan offsets_plan(Dtype output_dtype) {
  LaunchPlan plan;
  plan.buffers = {{"out", {}, 5 * sizeof(int32_t)}};
  LaunchStep step;
  step.entry = "offsets";
  step.block.x = 32;
  step.args = {KernelArg::of_scalar(int32_t{5}), KernelArg::of_buffer("out")};
  plan.steps = {step};
  plan.outputs = {{"out", 5, output_dtype}};
  return plan;
}

TEST(IntegerOutputs, AreReadAsSignedInt32) {
  EXPECT_EQ(compute_outputs(offsets_module(), offsets_plan(Dtype::I32)).at("out"),
            (std::vector<double>{-2, -1, 0, 1, 2}));
}

TEST(IntegerOutputs, OtherStorageTypesAreRefused) {
  EXPECT_THROW(compute_outputs(offsets_module(), offsets_plan(Dtype::F16)), InputError);
}

}  // namespace
}  // namespace ktune::interp
