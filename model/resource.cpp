#include "model/resource.h"

namespace ktune {
namespace {
constexpr std::array<const char*, kResourceCount> kNames = {
    "int_alu", "fp32", "fp64", "sfu", "shared", "l1", "l2_tag", "l2", "dram", "atomic", "branch", "barrier", "issue"};
}

bool resource_is_per_scheduler(Resource r) {
  switch (r) {
    case Resource::IntAlu:
    case Resource::Fp32:
    case Resource::Fp64:
    case Resource::Sfu:
    case Resource::Branch:
    case Resource::Issue:
      return true;
    default:
      return false;
  }
}

const char* resource_name(Resource r) { return kNames[static_cast<size_t>(r)]; }

std::optional<Resource> resource_from_name(const std::string& name) {
  for (size_t i = 0; i < kResourceCount; ++i)
    if (name == kNames[i]) return static_cast<Resource>(i);
  return std::nullopt;
}

}  // namespace ktune
