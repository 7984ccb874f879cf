#pragma once
// A parsed PTX module (model/ptx): its kernels (.entry) with parameters, registers, shared
// variables, pre-decoded instructions (ptx_instruction.h) and control-flow graph
// (ptx_cfg.h). parse_ptx() turns NVRTC's text into this; the interpreter (model/interp) runs it.
#include <cstdint>
#include <string>
#include <vector>

#include "model/ptx/ptx_cfg.h"
#include "model/ptx/ptx_instruction.h"

namespace ktune::ptx {

struct Param {
  std::string name;
  DataType type = DataType::None;
  uint32_t size = 0;    // bytes
  uint32_t offset = 0;  // in the parameter buffer, aligned to its size
};

struct Register {
  std::string name;  // "%r12", for messages only
  DataType type = DataType::None;
};

// A .shared variable: static ones are laid out from offset 0 of the block's shared window in
// declaration order; an extern (dynamic, size 0) one starts after them.
struct SharedVariable {
  std::string name;
  uint32_t offset = 0;
  uint32_t size = 0;
  uint32_t align = 1;
  bool dynamic = false;
};

struct PtxFunction {
  std::string name;
  bool is_entry = false;
  std::vector<Param> params;
  uint32_t param_bytes = 0;
  std::vector<Register> registers;          // ids index this
  std::vector<uint16_t> vector_regs;        // the elements of Vector operands
  std::vector<SharedVariable> shared;
  uint32_t static_shared_bytes = 0;
  std::vector<Instruction> code;
  Cfg cfg;

  const Param* find_param(const std::string& name) const;
  // "ld.global.nc.u32 (line 42)": how errors name an instruction.
  std::string describe(uint32_t pc) const;
};

struct PtxModule {
  std::string version;  // .version
  std::string target;   // .target
  std::vector<PtxFunction> functions;

  // nullptr when there is none of that name.
  const PtxFunction* find(const std::string& name) const;
  // Throws NotFoundError naming the function.
  const PtxFunction& function(const std::string& name) const;
};

}  // namespace ktune::ptx
