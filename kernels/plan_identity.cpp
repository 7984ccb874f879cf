#include "kernels/plan_identity.h"

#include <cstring>
#include <type_traits>

#include "workload/sha256.h"

namespace ktune {
namespace {

// Every field written with its length or fixed size, so that no two plans serialise alike.
class Digest {
 public:
  template <typename T>
  void number(T v) {
    static_assert(std::is_arithmetic_v<T>);
    sha_.update(&v, sizeof v);
  }
  void text(const std::string& s) {
    number(s.size());
    sha_.update(s);
  }
  void dim(const Dim3& d) {
    number(d.x);
    number(d.y);
    number(d.z);
  }
  std::string hex() const { return sha_.hex_digest(); }

 private:
  Sha256 sha_;
};

void add_arg(Digest& d, const KernelArg& a) {
  d.text(a.buffer);
  d.number(a.scalar.index());
  std::visit([&](auto v) { d.number(v); }, a.scalar);
  d.number(a.tensor_map.has_value());
  if (!a.tensor_map) return;
  const TensorMapArg& m = *a.tensor_map;
  d.text(m.buffer);
  d.number(static_cast<int>(m.dtype));
  for (const auto* list : {&m.dims, &m.strides}) {
    d.number(list->size());
    for (uint64_t v : *list) d.number(v);
  }
  d.number(m.box.size());
  for (uint32_t v : m.box) d.number(v);
  d.number(m.swizzle_bytes);
}

void add_step(Digest& d, const LaunchStep& s) {
  d.text(s.entry);
  d.dim(s.grid);
  d.dim(s.block);
  d.dim(s.cluster);
  d.number(s.shared_bytes);
  d.number(s.args.size());
  for (const KernelArg& a : s.args) add_arg(d, a);
  d.number(s.grid_from.has_value());
  if (s.grid_from) {
    d.text(s.grid_from->buffer);
    d.number(s.grid_from->index);
    d.number(s.grid_from->items_per_block);
  }
}

void add_program(Digest& d, const std::vector<PlanOp>& program) {
  d.number(program.size());
  for (const PlanOp& op : program) {
    d.number(static_cast<int>(op.kind));
    d.number(op.launch);
    d.text(op.buffer);
    d.number(op.word);
    d.text(op.from);
    d.text(op.until_zero);
    d.number(op.max_iterations);
    add_program(d, op.body);
  }
}

}  // namespace

std::string plan_identity(const LaunchPlan& plan, const std::string& kernel_key) {
  Digest d;
  d.text(kernel_key);
  d.text(plan.family);
  d.number(plan.buffers.size());
  for (const DeviceBuffer& b : plan.buffers) {
    d.text(b.name);
    d.number(b.size);
    d.text(b.bytes.empty() ? std::string() : b.bytes.content_id());
  }
  d.number(plan.outputs.size());
  for (const PlanOutput& o : plan.outputs) {
    d.text(o.buffer);
    d.number(o.elements);
    d.number(static_cast<int>(o.dtype));
    d.number(o.sampled);
    d.number(o.read_ranges.size());
    for (const auto& [first, last] : o.read_ranges) {
      d.number(first);
      d.number(last);
    }
  }
  d.number(plan.steps.size());
  for (const LaunchStep& s : plan.steps) add_step(d, s);
  add_program(d, plan.program);
  return d.hex();
}

}  // namespace ktune
