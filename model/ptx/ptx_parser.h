#pragma once
// PTX text -> PtxModule. Covers what NVRTC emits for ktune's kernel families: .entry
// functions with .param scalars and pointers, .reg declarations (also %r<N> ranges),
// .shared variables (static and extern), labels, predicated instructions, vector operands,
// shfl's d|p destinations, and the opcodes of ptx_instruction.h. Device functions (.func,
// call), .local and .global variables, textures and anything else unknown throw InputError
// naming the instruction or directive and its line.
#include <string_view>

#include "model/ptx/ptx_module.h"

namespace ktune::ptx {

PtxModule parse_ptx(std::string_view text);

}  // namespace ktune::ptx
