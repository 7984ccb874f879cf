#include "kernels/launch_plan.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "workload/input_error.h"
#include "workload/workload.h"

namespace ktune {

PlanOp PlanOp::run(size_t launch_index) {
  PlanOp op;
  op.kind = Kind::Launch;
  op.launch = launch_index;
  return op;
}

PlanOp PlanOp::fill(std::string buffer, uint32_t word) {
  PlanOp op;
  op.kind = Kind::Fill;
  op.buffer = std::move(buffer);
  op.word = word;
  return op;
}

PlanOp PlanOp::copy(std::string from, std::string to) {
  PlanOp op;
  op.kind = Kind::Copy;
  op.from = std::move(from);
  op.buffer = std::move(to);
  return op;
}

PlanOp PlanOp::loop(std::vector<PlanOp> body, std::string until_zero, int max_iterations) {
  PlanOp op;
  op.kind = Kind::Loop;
  op.body = std::move(body);
  op.until_zero = std::move(until_zero);
  op.max_iterations = max_iterations;
  return op;
}

namespace {

int64_t body_nodes(const std::vector<PlanOp>& ops) {
  int64_t n = 0;
  for (const PlanOp& op : ops) n += op.kind == PlanOp::Kind::Loop ? body_nodes(op.body) : 1;
  return n;
}

}  // namespace

int32_t PlanNodes::launches(double loop_iterations) const {
  const double n = static_cast<double>(outside) + static_cast<double>(per_iteration) * loop_iterations;
  return static_cast<int32_t>(std::llround(std::min(n, 1e9)));
}

PlanNodes plan_nodes(const std::vector<PlanOp>& program) {
  PlanNodes n;
  for (const PlanOp& op : program) {
    if (op.kind == PlanOp::Kind::Loop)
      n.per_iteration = std::max(n.per_iteration, body_nodes(op.body));
    else
      ++n.outside;
  }
  return n;
}

size_t PlanOutput::read_elements() const {
  if (read_ranges.empty()) return elements;
  size_t n = 0;
  for (const auto& [first, last] : read_ranges) n += last - first;
  return n;
}

const DeviceBuffer* LaunchPlan::buffer(const std::string& name) const {
  for (const DeviceBuffer& b : buffers)
    if (b.name == name) return &b;
  return nullptr;
}

std::vector<PlanOp> LaunchPlan::effective_program() const {
  if (!program.empty()) return program;
  std::vector<PlanOp> once;
  for (size_t i = 0; i < steps.size(); ++i) once.push_back(PlanOp::run(i));
  return once;
}

std::optional<LaunchStep> resolve_launch(const LaunchStep& step,
                                         const std::function<int32_t(const std::string&, uint32_t)>& counter,
                                         CounterGrids grids, uint32_t wave) {
  LaunchStep out = step;
  if (step.grid_from && grids == CounterGrids::Wave) {
    out.grid.x = std::max<uint32_t>(1, std::min(step.grid.x, wave));
    out.grid_from.reset();
  } else if (step.grid_from) {
    const int64_t items = counter(step.grid_from->buffer, step.grid_from->index);
    if (items <= 0) return std::nullopt;
    const int64_t blocks = (items + step.grid_from->items_per_block - 1) / step.grid_from->items_per_block;
    out.grid.x = static_cast<uint32_t>(std::min<int64_t>(blocks, step.grid.x));
    out.grid_from.reset();
  }
  // Whole clusters (step.grid.x is a multiple of them: rounding up stays within it).
  if (out.cluster.x > 1) out.grid.x = (out.grid.x + out.cluster.x - 1) / out.cluster.x * out.cluster.x;
  return out;
}

namespace {

void check_ops(const LaunchPlan& plan, const std::vector<PlanOp>& ops, const std::set<std::string>& names) {
  auto need = [&](const std::string& name, const char* what) {
    if (!names.count(name)) throw InputError(std::string(what) + " names no buffer '" + name + "' of the plan");
  };
  for (const PlanOp& op : ops) {
    switch (op.kind) {
      case PlanOp::Kind::Launch:
        if (op.launch >= plan.steps.size())
          throw InputError("the program runs launch " + std::to_string(op.launch) + " of " +
                           std::to_string(plan.steps.size()));
        break;
      case PlanOp::Kind::Fill:
        need(op.buffer, "a fill");
        break;
      case PlanOp::Kind::Copy:
        need(op.buffer, "a copy");
        need(op.from, "a copy");
        if (plan.buffer(op.buffer)->size != plan.buffer(op.from)->size)
          throw InputError("a copy from '" + op.from + "' to '" + op.buffer + "' joins buffers of different sizes");
        break;
      case PlanOp::Kind::Loop:
        need(op.until_zero, "a loop");
        if (op.max_iterations < 1) throw InputError("a loop needs a bound of at least one iteration");
        check_ops(plan, op.body, names);
        break;
    }
  }
}

}  // namespace

bool LaunchStep::has_tensor_maps() const {
  return std::any_of(args.begin(), args.end(), [](const KernelArg& a) { return a.tensor_map.has_value(); });
}

namespace {

void check_tensor_map(const LaunchStep& s, const TensorMapArg& m, const std::set<std::string>& names) {
  const std::string what = "a tensor map of " + s.entry;
  if (!names.count(m.buffer)) throw InputError(what + " names no buffer '" + m.buffer + "' of the plan");
  if (m.dims.empty() || m.dims.size() > 5 || m.strides.size() + 1 != m.dims.size() || m.box.size() != m.dims.size())
    throw InputError(what + " needs 1 to 5 dimensions, a stride for each but the first, and a box as deep");
  for (uint32_t b : m.box)
    if (b < 1 || b > 256) throw InputError(what + " has a box side outside 1..256");
  for (uint64_t st : m.strides)
    if (st % 16 != 0) throw InputError(what + " has a stride that is not a multiple of 16 bytes");
  if (m.swizzle_bytes != 0 && m.swizzle_bytes != 32 && m.swizzle_bytes != 64 && m.swizzle_bytes != 128)
    throw InputError(what + " swizzles over " + std::to_string(m.swizzle_bytes) + " bytes (0, 32, 64 or 128)");
}

}  // namespace

void check_plan(const LaunchPlan& plan) {
  std::set<std::string> names;
  for (const DeviceBuffer& b : plan.buffers) names.insert(b.name);
  for (const LaunchStep& s : plan.steps) {
    for (const KernelArg& a : s.args)
      if (!a.buffer.empty() && !names.count(a.buffer))
        throw InputError("launch of " + s.entry + " names no buffer '" + a.buffer + "' of the plan");
    for (const KernelArg& a : s.args)
      if (a.tensor_map) check_tensor_map(s, *a.tensor_map, names);
    if (s.cluster.x == 0 || s.cluster.y == 0 || s.cluster.z == 0 || s.grid.x % s.cluster.x != 0 ||
        s.grid.y % s.cluster.y != 0 || s.grid.z % s.cluster.z != 0)
      throw InputError("launch of " + s.entry + " has a grid that is not a whole number of its clusters");
    if (s.grid_from && !names.count(s.grid_from->buffer))
      throw InputError("launch of " + s.entry + " sizes its grid from no buffer '" + s.grid_from->buffer + "'");
  }
  for (const PlanOutput& o : plan.outputs)
    if (!names.count(o.buffer)) throw InputError("the plan's output names no buffer '" + o.buffer + "'");
  check_ops(plan, plan.program, names);
  if (plan.alike && (plan.alike->unit == 0 || plan.alike->first + plan.alike->unit * plan.alike->units > plan.program.size()))
    throw InputError("the plan's alike units (" + std::to_string(plan.alike->units) + " of " +
                     std::to_string(plan.alike->unit) + " ops from op " + std::to_string(plan.alike->first) +
                     ") do not lie within its program of " + std::to_string(plan.program.size()) + " ops");
}

nlohmann::json tensor_map_to_json(const TensorMapArg& m) {
  return {{"buffer", m.buffer}, {"dtype", to_string(m.dtype)}, {"dims", m.dims},
          {"strides", m.strides}, {"box", m.box}, {"swizzle_bytes", m.swizzle_bytes}};
}

TensorMapArg tensor_map_from_json(const nlohmann::json& j) {
  TensorMapArg m;
  m.buffer = j.at("buffer").get<std::string>();
  m.dtype = dtype_from_string(j.at("dtype").get<std::string>());
  m.dims = j.at("dims").get<std::vector<uint64_t>>();
  m.strides = j.at("strides").get<std::vector<uint64_t>>();
  m.box = j.at("box").get<std::vector<uint32_t>>();
  m.swizzle_bytes = j.at("swizzle_bytes").get<uint32_t>();
  return m;
}

nlohmann::json program_to_json(const std::vector<PlanOp>& program) {
  nlohmann::json out = nlohmann::json::array();
  for (const PlanOp& op : program) {
    switch (op.kind) {
      case PlanOp::Kind::Launch: out.push_back({{"op", "launch"}, {"launch", op.launch}}); break;
      case PlanOp::Kind::Fill: out.push_back({{"op", "fill"}, {"buffer", op.buffer}, {"word", op.word}}); break;
      case PlanOp::Kind::Copy: out.push_back({{"op", "copy"}, {"from", op.from}, {"to", op.buffer}}); break;
      case PlanOp::Kind::Loop:
        out.push_back({{"op", "loop"}, {"body", program_to_json(op.body)}, {"until_zero", op.until_zero},
                       {"max_iterations", op.max_iterations}});
        break;
    }
  }
  return out;
}

std::vector<PlanOp> program_from_json(const nlohmann::json& j) {
  std::vector<PlanOp> program;
  for (const nlohmann::json& o : j) {
    const std::string kind = o.at("op").get<std::string>();
    if (kind == "launch") {
      program.push_back(PlanOp::run(o.at("launch").get<size_t>()));
    } else if (kind == "fill") {
      program.push_back(PlanOp::fill(o.at("buffer").get<std::string>(), o.at("word").get<uint32_t>()));
    } else if (kind == "copy") {
      program.push_back(PlanOp::copy(o.at("from").get<std::string>(), o.at("to").get<std::string>()));
    } else if (kind == "loop") {
      program.push_back(PlanOp::loop(program_from_json(o.at("body")), o.at("until_zero").get<std::string>(),
                                     o.at("max_iterations").get<int>()));
    } else {
      throw nlohmann::json::other_error::create(501, "unknown plan operation '" + kind + "'", &o);
    }
  }
  return program;
}

}  // namespace ktune
