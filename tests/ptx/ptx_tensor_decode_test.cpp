// The tensor-core instructions the interpreter runs (tests/interp/gemm_interp_test.cpp runs them
// in the mma.sync and DMMA GEMMs), decoded with what it needs of them, and the ones it does not run
// refused in words the conformance suite recognises ("unknown opcode", "is not modelled").
#include <gtest/gtest.h>

#include "model/ptx/ptx_opcode_decode.h"
#include "workload/input_error.h"

namespace ktune::ptx {
namespace {

std::string refusal(std::string_view word) {
  try {
    decode_opcode(word, 1);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(PtxTensorDecode, MmaLdmatrixAndCpAsyncDecodeWithWhatTheInterpreterNeeds) {
  const Instruction mma = decode_opcode("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 1);
  EXPECT_EQ(mma.op, Opcode::Mma);
  EXPECT_EQ(mma.type, DataType::F32);
  EXPECT_EQ(mma.type2, DataType::BF16);
  EXPECT_EQ(decode_opcode("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 1).type2, DataType::F16);
  const Instruction dmma = decode_opcode("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64", 1);
  EXPECT_EQ(dmma.type, DataType::F64);
  EXPECT_EQ(dmma.mma_k, 8);
  EXPECT_EQ(decode_opcode("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64", 1).mma_k, 16);
  const Instruction tf32 = decode_opcode("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 1);
  EXPECT_EQ(tf32.type, DataType::F32);
  EXPECT_EQ(tf32.type2, DataType::TF32);
  EXPECT_EQ(tf32.mma_k, 8);
  const Instruction ld = decode_opcode("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16", 1);
  EXPECT_EQ(ld.op, Opcode::Ldmatrix);
  EXPECT_EQ(ld.vector, 4);
  EXPECT_TRUE(ld.trans);
  EXPECT_EQ(decode_opcode("ldmatrix.sync.aligned.m8n8.x2.shared.b16", 1).vector, 2);
  EXPECT_FALSE(decode_opcode("ldmatrix.sync.aligned.m8n8.x2.shared.b16", 1).trans);
  EXPECT_EQ(decode_opcode("cp.async.cg.shared.global", 1).op, Opcode::CpAsync);
  EXPECT_EQ(decode_opcode("cp.async.ca.shared.global", 1).op, Opcode::CpAsync);
  // Copies land at once in the interpreter: committing and waiting are no-ops.
  EXPECT_EQ(decode_opcode("cp.async.commit_group", 1).op, Opcode::Membar);
  EXPECT_EQ(decode_opcode("cp.async.wait_group", 1).op, Opcode::Membar);
}

TEST(PtxTensorDecode, WhatTheInterpreterDoesNotRunIsRefusedInWordsTheConformanceSuiteKnows) {
  EXPECT_NE(refusal("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64").find("is not modelled"), std::string::npos);
  EXPECT_NE(refusal("mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32").find("is not modelled"), std::string::npos);
  EXPECT_NE(refusal("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f16").find("is not modelled"), std::string::npos);
  EXPECT_NE(refusal("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16").find("is not modelled"), std::string::npos);
  EXPECT_NE(refusal("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes").find("unknown opcode"),
            std::string::npos);
  EXPECT_NE(refusal("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16").find("unknown opcode"), std::string::npos);
  EXPECT_NE(refusal("cvt.rn.bf16.f32").find("bf16"), std::string::npos);
}

}  // namespace
}  // namespace ktune::ptx
