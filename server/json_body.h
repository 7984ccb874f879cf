#pragma once
// JSON from clients: nesting is bounded before nlohmann's parser, serialiser and destructor
// recurse over it, so no body can exhaust a thread's stack.
#include <nlohmann/json.hpp>
#include <string_view>

namespace ktune {

// Deeper than any request ktune defines (a tune body nests four levels).
constexpr int kMaxJsonDepth = 32;

// Arrays and objects open at the deepest point of `text`, counted outside strings; stops
// counting past `limit`. Works on any bytes, valid JSON or not.
int json_nesting_depth(std::string_view text, int limit);

// `text` as a JSON object. Throws InputError naming `what` ("the request body", "config
// file 'x'") when it is empty, nested deeper than kMaxJsonDepth, not JSON or not an object.
nlohmann::json parse_json_object(std::string_view text, const std::string& what);

// Serialises for a client: bytes that are not UTF-8 (echoed input in an error message, say)
// become U+FFFD instead of an exception.
std::string dump_for_client(const nlohmann::json& j);

}  // namespace ktune
