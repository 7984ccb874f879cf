#include "bench/soak/json_reply_check.h"

#include <nlohmann/json.hpp>

namespace ktune::soak {

std::optional<std::string> json_reply_problem(int status, const std::string& body) {
  if (status == 204 && body.empty()) return std::nullopt;  // No Content: nothing to parse
  // nlohmann rejects invalid UTF-8 inside strings, as any strict client would.
  const nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded()) return std::to_string(status) + " with a body that is not valid JSON: " + body;
  if (status >= 400 && !(j.is_object() && j.contains("error") && j["error"].is_string()))
    return std::to_string(status) + " without an \"error\" string: " + body;
  return std::nullopt;
}

void check_json_reply(RequestTally& tally, const std::string& route, const std::string& request, const Reply& reply) {
  if (!reply.answered) return;
  if (const auto problem = json_reply_problem(reply.status, reply.body)) tally.record_problem(route, request, *problem);
}

}  // namespace ktune::soak
