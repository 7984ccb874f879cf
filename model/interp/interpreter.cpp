#include "model/interp/interpreter.h"

#include <cstring>

#include "workload/input_error.h"

namespace ktune::interp {
namespace {

template <typename T>
double read_as_double(std::string_view bytes, size_t i) {
  T v;
  std::memcpy(&v, bytes.data() + i * sizeof v, sizeof v);
  return static_cast<double>(v);
}

double element_at(std::string_view bytes, Dtype dtype, size_t i) {
  switch (dtype) {
    case Dtype::F32: return read_as_double<float>(bytes, i);
    case Dtype::I32: return read_as_double<int32_t>(bytes, i);
    default: return read_as_double<double>(bytes, i);
  }
}

}  // namespace

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

void run_program(const ptx::PtxModule& module, const LaunchPlan& plan, const std::vector<PlanOp>& ops,
                 HostMemory& memory, CounterGrids grids, TwinnedLaunches twinned) {
  const auto counter = [&memory](const std::string& buffer, uint32_t index) { return memory.int32_at(buffer, index); };
  for (const PlanOp& op : ops) {
    switch (op.kind) {
      case PlanOp::Kind::Launch:
        if (const std::optional<LaunchStep> step =
                resolve_launch(plan.steps.at(op.launch), counter, grids, kInterpretedWave)) {
          const auto twin = plan.twins.find(step->entry);
          if (twinned == TwinnedLaunches::ByTwin && twin != plan.twins.end())
            twin->second(*step, memory);
          else
            run_launch(module.function(step->entry), *step, memory);
        }
        break;
      case PlanOp::Kind::Fill: memory.fill(op.buffer, op.word); break;
      case PlanOp::Kind::Copy: memory.copy(op.from, op.buffer); break;
      case PlanOp::Kind::Loop:
        for (int i = 0; i < op.max_iterations; ++i) {
          run_program(module, plan, op.body, memory, grids, twinned);
          if (memory.int32_at(op.until_zero, 0) == 0) break;
        }
        break;
    }
  }
}

Reference compute_outputs(const ptx::PtxModule& module, const LaunchPlan& plan, CounterGrids grids,
                          TwinnedLaunches twinned) {
  HostMemory memory(plan, HostMemory::Fill::Poison);
  run_program(module, plan, plan.effective_program(), memory, grids, twinned);
  Reference out;
  for (const PlanOutput& o : plan.outputs) {
    const std::string_view bytes = memory.bytes_of(o.buffer);
    const size_t element = dtype_size(o.dtype);
    if (o.dtype != Dtype::F32 && o.dtype != Dtype::F64 && o.dtype != Dtype::I32)
      throw InputError(std::string("the interpreter reads outputs of f32, f64 or i32, not ") + to_string(o.dtype));
    if (bytes.size() < o.elements * element)
      throw InputError("output buffer " + o.buffer + " holds fewer than " + std::to_string(o.elements) + " values");
    std::vector<double>& values = out[o.buffer];
    values.resize(o.elements);
    for (size_t i = 0; i < o.elements; ++i) values[i] = element_at(bytes, o.dtype, i);
  }
  return out;
}

}  // namespace ktune::interp
