#pragma once
// A measurement request as it travels to the worker: the launch plan with every input
// named by a content key instead of carried, so that the worker keeps a matrix it already
// holds and only what it lacks is uploaded (MessageType::Need / Upload).
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/measurement.h"
#include "kernels/launch_plan.h"
#include "kernels/vendor_call.h"

namespace ktune {

// SHA-256 of the bytes and the size they occupy once stored, e.g. "<64 hex>-4096": the same
// bytes padded to another size are another entry.
std::string content_key(std::string_view bytes, size_t stored_size);
// The same key from an identity already known (HostBytes::content_id: a hash, or a recipe).
std::string content_key_of_id(const std::string& content_id, size_t stored_size);

// Inputs carry a content key and live across requests; scratch and output buffers carry
// none and are allocated for one request.
struct WireBuffer {
  std::string name;
  size_t size = 0;  // bytes on the device; an input's tail past its content is zeroed
  std::string content_key;
};

// An output to check: its buffer, its values, and the reference as a host content key.
struct WireOutput {
  std::string buffer;
  size_t elements = 0;
  Dtype dtype = Dtype::F32;
  std::string reference_key;  // host content: the reference as doubles
  size_t sampled = 0;                                     // PlanOutput::sampled
  std::vector<std::pair<size_t, size_t>> read_ranges{};  // PlanOutput::read_ranges
};

struct MeasureRequest {
  std::string kind = "kernel";  // "kernel" (payload: the cubin) or "vendor" (a library call)
  std::string family;           // whose verifier checks the outputs; empty: the default tolerance
  Problem problem;
  std::vector<WireBuffer> buffers;
  std::vector<LaunchStep> steps;  // `entry` holds the symbol in the cubin
  std::vector<PlanOp> program;    // empty: the steps in order
  std::vector<WireOutput> outputs;
  std::map<std::string, std::string> check_keys;  // the verifier's check data: name -> host content key
  MeasureOptions options;
  bool fresh = false;  // drop the worker's copies of this request's inputs and re-upload them
  VendorCall vendor;   // kind "vendor": the call, from the worker's registry (gpu/vendor_calls.h)

  nlohmann::json to_json() const;
  static MeasureRequest from_json(const nlohmann::json& j);  // throws nlohmann::json::exception
  // Device contents (the buffers' keys) and host contents (references, check data).
  std::vector<std::string> device_keys() const;
  std::vector<std::string> host_keys() const;
};

}  // namespace ktune
