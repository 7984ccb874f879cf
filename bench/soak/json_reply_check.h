#pragma once
// docs/api.md's rule for JSON routes: every answer body is JSON, and an error answer says why
// in "error". Whatever a client sent, including bytes that are not UTF-8.
#include <optional>
#include <string>

#include "bench/soak/request_tally.h"

namespace ktune::soak {

// What is wrong with the answer, or nullopt when it keeps the rule.
std::optional<std::string> json_reply_problem(int status, const std::string& body);

// Records the problem of an answered reply in `tally`, if it has one.
void check_json_reply(RequestTally& tally, const std::string& route, const std::string& request, const Reply& reply);

}  // namespace ktune::soak
