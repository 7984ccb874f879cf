#pragma once
// A measurement request as it travels to the worker: the launch plan with every input
// named by a content key instead of carried, so that the worker keeps a matrix it already
// holds and only what it lacks is uploaded (MessageType::Need / Upload).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/measurement.h"
#include "kernels/kernel_family.h"

namespace ktune {

// SHA-256 of the bytes and the size they occupy once stored, e.g. "<64 hex>-4096": the same
// bytes padded to another size are another entry.
std::string content_key(std::string_view bytes, size_t stored_size);
// The same key from a hash already computed (HostBytes keeps theirs).
std::string content_key_of_hash(const std::string& sha256, size_t stored_size);

// Inputs carry a content key and live across requests; scratch and output buffers carry
// none and are allocated for one request.
struct WireBuffer {
  std::string name;
  size_t size = 0;  // bytes on the device; an input's tail past its content is zeroed
  std::string content_key;
};

struct MeasureRequest {
  std::string kind = "kernel";  // "kernel" (payload: the cubin) or "cusparse_spmv"
  std::vector<WireBuffer> buffers;
  std::vector<LaunchStep> steps;  // `entry` holds the symbol in the cubin
  std::string output;
  size_t output_elements = 0;
  Dtype dtype = Dtype::F32;
  std::string reference_key;    // host content: the reference as doubles
  std::string row_lengths_key;  // host content: int32 reduction lengths; empty when none
  MeasureOptions options;
  bool fresh = false;  // drop the worker's copies of this request's inputs and re-upload them
  // cusparse_spmv only: CSR over the buffers row_ptr, col_idx, values, x, y.
  std::string alg;  // "csr_alg1" | "csr_alg2"
  int32_t rows = 0, cols = 0;
  int64_t nnz = 0;

  nlohmann::json to_json() const;
  static MeasureRequest from_json(const nlohmann::json& j);  // throws nlohmann::json::exception
  // Device contents (the buffers' keys) and host contents (reference, row lengths).
  std::vector<std::string> device_keys() const;
  std::vector<std::string> host_keys() const;
};

}  // namespace ktune
