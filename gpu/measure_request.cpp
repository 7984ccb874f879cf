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
  if (a.tensor_map) return {{"tensor_map", tensor_map_to_json(*a.tensor_map)}};
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
  if (j.contains("tensor_map")) return KernelArg::of_tensor_map(tensor_map_from_json(j.at("tensor_map")));
  if (j.contains("buffer")) return KernelArg::of_buffer(j.at("buffer").get<std::string>());
  if (j.contains("i32")) return KernelArg::of_scalar(j.at("i32").get<int32_t>());
  if (j.contains("i64")) return KernelArg::of_scalar(j.at("i64").get<int64_t>());
  if (j.contains("f32")) return KernelArg::of_scalar(j.at("f32").get<float>());
  return KernelArg::of_scalar(j.at("f64").get<double>());
}

nlohmann::json step_to_json(const LaunchStep& s) {
  nlohmann::json args = nlohmann::json::array();
  for (const KernelArg& a : s.args) args.push_back(arg_to_json(a));
  nlohmann::json j = {{"entry", s.entry},
                      {"grid", dim_to_json(s.grid)},
                      {"block", dim_to_json(s.block)},
                      {"cluster", dim_to_json(s.cluster)},
                      {"shared_bytes", s.shared_bytes},
                      {"args", args}};
  if (s.grid_from)
    j["grid_from"] = {{"buffer", s.grid_from->buffer},
                      {"index", s.grid_from->index},
                      {"items_per_block", s.grid_from->items_per_block}};
  return j;
}

LaunchStep step_from_json(const nlohmann::json& j) {
  LaunchStep s;
  s.entry = j.at("entry").get<std::string>();
  s.grid = dim_from_json(j.at("grid"));
  s.block = dim_from_json(j.at("block"));
  if (j.contains("cluster")) s.cluster = dim_from_json(j.at("cluster"));  // absent from older daemons: none
  s.shared_bytes = j.at("shared_bytes").get<uint32_t>();
  for (const nlohmann::json& a : j.at("args")) s.args.push_back(arg_from_json(a));
  if (j.contains("grid_from")) {
    const nlohmann::json& g = j["grid_from"];
    s.grid_from = GridFromCounter{g.at("buffer").get<std::string>(), g.at("index").get<uint32_t>(),
                                  g.at("items_per_block").get<uint32_t>()};
  }
  return s;
}

}  // namespace

std::string content_key(std::string_view bytes, size_t stored_size) {
  return content_key_of_id(sha256_hex(bytes), stored_size);
}

std::string content_key_of_id(const std::string& content_id, size_t stored_size) {
  return content_id + "-" + std::to_string(stored_size);
}

nlohmann::json MeasureRequest::to_json() const {
  nlohmann::json wire_buffers = nlohmann::json::array();
  for (const WireBuffer& b : buffers) {
    wire_buffers.push_back({{"name", b.name}, {"size", b.size}, {"content_key", b.content_key}});
  }
  nlohmann::json wire_steps = nlohmann::json::array();
  for (const LaunchStep& s : steps) wire_steps.push_back(step_to_json(s));
  nlohmann::json wire_outputs = nlohmann::json::array();
  for (const WireOutput& o : outputs)
    wire_outputs.push_back(
        {{"buffer", o.buffer}, {"elements", o.elements}, {"dtype", to_string(o.dtype)}, {"reference_key", o.reference_key},
         {"sampled", o.sampled}, {"read_ranges", o.read_ranges}});
  return {{"kind", kind},
          {"family", family},
          {"problem", {{"params", problem.params}, {"precision", to_string(problem.precision)}}},
          {"buffers", wire_buffers},
          {"steps", wire_steps},
          {"program", program_to_json(program)},
          {"outputs", wire_outputs},
          {"check_keys", check_keys},
          {"options", options.to_json()},
          {"fresh", fresh},
          {"vendor", {{"name", vendor.name}, {"label", vendor.label}, {"args", vendor.args}}}};
}

MeasureRequest MeasureRequest::from_json(const nlohmann::json& j) {
  MeasureRequest r;
  r.kind = j.at("kind").get<std::string>();
  r.family = j.at("family").get<std::string>();
  r.problem.params = j.at("problem").at("params");
  r.problem.precision = precision_from_string(j.at("problem").at("precision").get<std::string>());
  for (const nlohmann::json& b : j.at("buffers")) {
    r.buffers.push_back({b.at("name").get<std::string>(), b.at("size").get<size_t>(),
                         b.at("content_key").get<std::string>()});
  }
  for (const nlohmann::json& s : j.at("steps")) r.steps.push_back(step_from_json(s));
  r.program = program_from_json(j.at("program"));
  for (const nlohmann::json& o : j.at("outputs"))
    r.outputs.push_back({o.at("buffer").get<std::string>(), o.at("elements").get<size_t>(),
                         dtype_from_string(o.at("dtype").get<std::string>()), o.at("reference_key").get<std::string>(),
                         o.at("sampled").get<size_t>(), o.at("read_ranges").get<std::vector<std::pair<size_t, size_t>>>()});
  r.check_keys = j.at("check_keys").get<std::map<std::string, std::string>>();
  r.options = MeasureOptions::from_json(j.at("options"));
  r.fresh = j.at("fresh").get<bool>();
  const nlohmann::json& v = j.at("vendor");
  r.vendor = {v.at("name").get<std::string>(), v.at("label").get<std::string>(), v.at("args")};
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
  std::set<std::string> keys;
  for (const WireOutput& o : outputs) keys.insert(o.reference_key);
  for (const auto& [name, key] : check_keys) keys.insert(key);
  return {keys.begin(), keys.end()};
}

}  // namespace ktune
