#include "model/ptx/ptx_module.h"

#include "workload/input_error.h"

namespace ktune::ptx {

const Param* PtxFunction::find_param(const std::string& param_name) const {
  for (const Param& p : params) {
    if (p.name == param_name) return &p;
  }
  return nullptr;
}

std::string PtxFunction::describe(uint32_t pc) const {
  if (pc >= code.size()) return name + ": past the last instruction";
  const Instruction& ins = code[pc];
  std::string text = opcode_name(ins.op);
  if (ins.space != StateSpace::None) {
    static const char* const spaces[] = {"", "", ".global", ".shared", ".local", ".param", ".const"};
    text += spaces[static_cast<size_t>(ins.space)];
  }
  if (ins.non_coherent) text += ".nc";
  if (ins.evict_first) text += ".cs";
  if (ins.vector > 1) text += ".v" + std::to_string(ins.vector);
  if (ins.type != DataType::None) text += std::string(".") + type_name(ins.type);
  if (ins.type2 != DataType::None) text += std::string(".") + type_name(ins.type2);
  return text + " (" + name + ", PTX line " + std::to_string(ins.line) + ")";
}

const PtxFunction* PtxModule::find(const std::string& function_name) const {
  for (const PtxFunction& f : functions) {
    if (f.name == function_name) return &f;
  }
  return nullptr;
}

const PtxFunction& PtxModule::function(const std::string& function_name) const {
  const PtxFunction* f = find(function_name);
  if (!f) throw NotFoundError("PTX module has no kernel " + function_name);
  return *f;
}

}  // namespace ktune::ptx
