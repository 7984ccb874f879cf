#include "server/json_body.h"

#include "workload/input_error.h"

namespace ktune {

int json_nesting_depth(std::string_view text, int limit) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

nlohmann::json parse_json_object(std::string_view text, const std::string& what) {
  if (text.empty()) throw InputError(what + " is empty; expected a JSON object");
  if (json_nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth)
    throw InputError(what + " nests arrays and objects deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) throw InputError(what + " is not valid JSON");
  if (!j.is_object()) throw InputError(what + " must be a JSON object");
  return j;
}

std::string dump_for_client(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace ktune
