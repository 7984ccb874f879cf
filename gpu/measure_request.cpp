#include "gpu/measure_request.h"

#include <set>

#include "workload/sha256.h"
#include "workload/workload.h"

namespace ktune {
namespace {

nlohmann::json dim_to_json(const Dim3& d) { return {d.x, d.y, d.z}; }

Dim3 dim_from_json(const nlohmann::json& j) {
  return {j.at(0).get<uint32_t>(), j.at(1).get<uint32_t>(), j.at(2).get<uint32_t>()};
}

// Scalars keep their C type on the wire: the kernel reads exactly that many bytes.
nlohmann::json arg_to_json(const KernelArg& a) {
  if (!a.buffer.empty()) return {{"buffer", a.buffer}};
  return std::visit(
      [](auto v) -> nlohmann::json {
        using T = decltype(v);
        if constexpr (std::is_same_v<T, int32_t>) return {{"i32", v}};
        if constexpr (std::is_same_v<T, int64_t>) return {{"i64", v}};
        if constexpr (std::is_same_v<T, float>) return {{"f32", v}};
        if constexpr (std::is_same_v<T, double>) return {{"f64", v}};
      },
      a.scalar);
}

KernelArg arg_from_json(const nlohmann::json& j) {
  if (j.contains("buffer")) return KernelArg::of_buffer(j.at("buffer").get<std::string>());
  if (j.contains("i32")) return KernelArg::of_scalar(j.at("i32").get<int32_t>());
  if (j.contains("i64")) return KernelArg::of_scalar(j.at("i64").get<int64_t>());
  if (j.contains("f32")) return KernelArg::of_scalar(j.at("f32").get<float>());
  return KernelArg::of_scalar(j.at("f64").get<double>());
}

nlohmann::json step_to_json(const LaunchStep& s) {
  nlohmann::json args = nlohmann::json::array();
  for (const KernelArg& a : s.args) args.push_back(arg_to_json(a));
  return {{"entry", s.entry},
          {"grid", dim_to_json(s.grid)},
          {"block", dim_to_json(s.block)},
          {"shared_bytes", s.shared_bytes},
          {"args", args}};
}

LaunchStep step_from_json(const nlohmann::json& j) {
  LaunchStep s;
  s.entry = j.at("entry").get<std::string>();
  s.grid = dim_from_json(j.at("grid"));
  s.block = dim_from_json(j.at("block"));
  s.shared_bytes = j.at("shared_bytes").get<uint32_t>();
  for (const nlohmann::json& a : j.at("args")) s.args.push_back(arg_from_json(a));
  return s;
}

}  // namespace

std::string content_key(std::string_view bytes, size_t stored_size) {
  return content_key_of_hash(sha256_hex(bytes), stored_size);
}

std::string content_key_of_hash(const std::string& sha256, size_t stored_size) {
  return sha256 + "-" + std::to_string(stored_size);
}

nlohmann::json MeasureRequest::to_json() const {
  nlohmann::json wire_buffers = nlohmann::json::array();
  for (const WireBuffer& b : buffers) {
    wire_buffers.push_back({{"name", b.name}, {"size", b.size}, {"content_key", b.content_key}});
  }
  nlohmann::json wire_steps = nlohmann::json::array();
  for (const LaunchStep& s : steps) wire_steps.push_back(step_to_json(s));
  return {{"kind", kind},
          {"buffers", wire_buffers},
          {"steps", wire_steps},
          {"output", output},
          {"output_elements", output_elements},
          {"dtype", to_string(dtype)},
          {"reference_key", reference_key},
          {"row_lengths_key", row_lengths_key},
          {"options", options.to_json()},
          {"fresh", fresh},
          {"alg", alg},
          {"rows", rows},
          {"cols", cols},
          {"nnz", nnz}};
}

MeasureRequest MeasureRequest::from_json(const nlohmann::json& j) {
  MeasureRequest r;
  r.kind = j.at("kind").get<std::string>();
  for (const nlohmann::json& b : j.at("buffers")) {
    r.buffers.push_back({b.at("name").get<std::string>(), b.at("size").get<size_t>(),
                         b.at("content_key").get<std::string>()});
  }
  for (const nlohmann::json& s : j.at("steps")) r.steps.push_back(step_from_json(s));
  r.output = j.at("output").get<std::string>();
  r.output_elements = j.at("output_elements").get<size_t>();
  r.dtype = dtype_from_string(j.at("dtype").get<std::string>());
  r.reference_key = j.at("reference_key").get<std::string>();
  r.row_lengths_key = j.at("row_lengths_key").get<std::string>();
  r.options = MeasureOptions::from_json(j.at("options"));
  r.fresh = j.at("fresh").get<bool>();
  r.alg = j.at("alg").get<std::string>();
  r.rows = j.at("rows").get<int32_t>();
  r.cols = j.at("cols").get<int32_t>();
  r.nnz = j.at("nnz").get<int64_t>();
  return r;
}

std::vector<std::string> MeasureRequest::device_keys() const {
  std::set<std::string> keys;
  for (const WireBuffer& b : buffers) {
    if (!b.content_key.empty()) keys.insert(b.content_key);
  }
  return {keys.begin(), keys.end()};
}

std::vector<std::string> MeasureRequest::host_keys() const {
  std::vector<std::string> keys{reference_key};
  if (!row_lengths_key.empty() && row_lengths_key != reference_key) keys.push_back(row_lengths_key);
  return keys;
}

}  // namespace ktune
