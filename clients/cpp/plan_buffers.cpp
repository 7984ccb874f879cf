#include "clients/cpp/plan_buffers.h"

#include <algorithm>

#include "ktune/tuned_kernel.h"

namespace ktune {
namespace {

std::string listed(const std::set<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

std::vector<std::string> caller_operands(const KernelFamily& family, const Workload& w, const Problem& p,
                                         const LaunchPlan& plan) {
  std::set<std::string> roles;
  for (const VendorCall& call : family.vendor_calls(w, p))
    for (const auto& [key, value] : call.args.items())
      if (value.is_string()) roles.insert(value.get<std::string>());
  for (const PlanOutput& o : plan.outputs) roles.insert(o.buffer);
  std::vector<std::string> operands;
  for (const DeviceBuffer& b : plan.buffers)
    if (roles.count(b.name) && !csr_array_names().count(b.name)) operands.push_back(b.name);
  return operands;
}

PlanBuffers::PlanBuffers(const CudaDriver& cu, const LaunchPlan& plan, std::set<std::string> from_caller)
    : from_caller_(std::move(from_caller)) {
  for (const DeviceBuffer& b : plan.buffers) {
    table_.size[b.name] = b.size;
    if (from_caller_.count(b.name)) continue;
    table_.owned.emplace_back(cu, b.size);
    const CUdeviceptr address = table_.owned.back().get();
    table_.address[b.name] = address;
    const std::string_view bytes = b.bytes.view();
    if (!bytes.empty()) cu.check(cu.memcpy_htod(address, bytes.data(), bytes.size()), "uploading '" + b.name + "'");
    // Scratch and padding start zeroed, as in the measurement worker that timed the plan.
    if (b.size > bytes.size())
      cu.check(cu.memset_d8_async(address + bytes.size(), 0, b.size - bytes.size(), nullptr), "zeroing '" + b.name + "'");
  }
  // Uploads from pageable memory may still be in flight when cuMemcpyHtoD returns, and the
  // caller's stream need not wait for the legacy stream.
  cu.check(cu.ctx_synchronize(), "finishing the uploads");
  // Names the plan does not take (a matrix array the configuration replaced by a form of its
  // own) are not the caller's to give.
  for (auto it = from_caller_.begin(); it != from_caller_.end();)
    it = table_.size.count(*it) ? std::next(it) : from_caller_.erase(it);
}

bool PlanBuffers::bind(const std::map<std::string, CUdeviceptr>& addresses) {
  for (const auto& [name, address] : addresses)
    if (!from_caller_.count(name))
      throw LaunchError("this kernel takes no buffer '" + name + "'; it takes " + listed(from_caller_));
  bool changed = false;
  for (const std::string& name : from_caller_) {
    auto given = addresses.find(name);
    if (given == addresses.end() || given->second == 0)
      throw LaunchError("buffer '" + name + "' is missing; this kernel takes " + listed(from_caller_));
    CUdeviceptr& bound = table_.address[name];
    changed |= bound != given->second;
    bound = given->second;
  }
  return changed;
}

}  // namespace ktune
