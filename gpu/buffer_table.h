#pragma once
// The device address and size of every buffer a plan names, for the launches that name them.
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/cuda_resources.h"

namespace ktune {

struct BufferTable {
  std::map<std::string, CUdeviceptr> address;
  std::map<std::string, size_t> size;
  std::vector<DeviceMemory> owned;  // what the table's owner allocated for it (scratch, outputs)

  // Throws naming the missing buffer.
  CUdeviceptr at(const std::string& name) const {
    auto it = address.find(name);
    if (it == address.end()) throw std::runtime_error("the plan names no buffer '" + name + "'");
    return it->second;
  }
};

}  // namespace ktune
