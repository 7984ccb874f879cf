// Module-level .global and .const variables: declared ones are skipped (CUDA 13's headers
// declare an unused .global helper in every module that calls atomicExch or atomicCAS), and a
// kernel that uses one is refused with the variable's name.
#include <gtest/gtest.h>

#include <string>

#include "model/ptx/ptx_parser.h"
#include "workload/input_error.h"

namespace ktune::ptx {
namespace {

std::string module_with(const std::string& declarations, const std::string& body) {
  return ".version 9.0\n.target sm_90\n.address_size 64\n" + declarations +
         "\n.visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n\t.reg .b64 %rd<3>;\n\t.reg .b32 %r<2>;\n"
         "\tld.param.u64 %rd1, [k_param_0];\n" + body + "\tret;\n}\n";
}

TEST(PtxModuleVariables, AnUnusedDeclarationIsSkipped) {
  const PtxModule m = parse_ptx(module_with(".global .align 1 .u8 _ZN26__nv_atomic_triv_cp_helperIiE5__valE;\n"
                                            ".const .align 4 .b32 table[2] = {1, 2};",
                                            ""));
  ASSERT_EQ(m.functions.size(), 1u);
  EXPECT_EQ(m.functions[0].name, "k");
}

TEST(PtxModuleVariables, AKernelThatUsesOneIsRefusedByName) {
  const std::string declaration = ".global .align 4 .b32 counter;";
  try {
    parse_ptx(module_with(declaration, "\tmov.u64 %rd2, counter;\n"));
    FAIL() << "a use of a module-level variable parsed";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("module-level .global variables are not supported ('counter')"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(parse_ptx(module_with(declaration, "\tld.global.u32 %r1, [counter];\n")), InputError);
}

}  // namespace
}  // namespace ktune::ptx
