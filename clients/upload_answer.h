#pragma once
// What `ktune lookup FILE` needs from the answer to POST /v1/matrices: the daemon computes
// signatures, so the client never has to parse a matrix itself.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ktune {

// "signature" is an object with "exact" (and "features"), or just the exact string.
// Empty when the answer has none.
std::string exact_signature(const nlohmann::json& upload);
// signature.features, for nearest-neighbour lookups; empty when absent.
std::vector<double> signature_features(const nlohmann::json& upload);

}  // namespace ktune
