#include "model/interp/interpreter.h"

#include <cstring>

#include "workload/input_error.h"

namespace ktune::interp {

std::vector<BlockTrace> interpret_blocks(const ptx::PtxFunction& f, const LaunchStep& step, HostMemory& memory,
                                         const std::vector<int64_t>& blocks) {
  LaunchInterpreter interpreter(f, step, memory);
  std::vector<BlockTrace> traces;
  traces.reserve(blocks.size());
  for (int64_t b : blocks) traces.push_back(interpreter.run_block(b, true));
  return traces;
}

void run_launch(const ptx::PtxFunction& f, const LaunchStep& step, HostMemory& memory) {
  LaunchInterpreter interpreter(f, step, memory);
  for (int64_t b = 0; b < interpreter.block_count(); ++b) interpreter.run_block(b, false);
}

std::vector<double> compute_output(const ptx::PtxModule& module, const LaunchPlan& plan, Dtype dtype) {
  HostMemory memory(plan, HostMemory::Fill::Poison);
  for (const LaunchStep& step : plan.steps) run_launch(module.function(step.entry), step, memory);
  const std::string_view bytes = memory.bytes_of(plan.output);
  const size_t element = dtype_size(dtype);
  if (bytes.size() < plan.output_elements * element) {
    throw InputError("output buffer " + plan.output + " holds fewer than " +
                     std::to_string(plan.output_elements) + " values");
  }
  std::vector<double> out(plan.output_elements);
  for (size_t i = 0; i < out.size(); ++i) {
    if (dtype == Dtype::F32) {
      float v;
      std::memcpy(&v, bytes.data() + i * element, sizeof v);
      out[i] = v;
    } else {
      std::memcpy(&out[i], bytes.data() + i * element, sizeof(double));
    }
  }
  return out;
}

}  // namespace ktune::interp
