#pragma once
// Malformed query strings for GET /v1/configs, sent unencoded: bad percent escapes (%FF, %,
// %G1, %00), raw bytes, missing, empty or repeated parameters, unknown kernels and dtypes,
// hostile feature vectors and signatures too long for any buffer.
#include <random>
#include <string>

#include "bench/soak/upload_mutations.h"

namespace ktune::soak {

// The path and query (bytes for the request line; never CR or LF). `signature` is a real one.
FuzzedBody fuzz_config_query(const std::string& signature, std::mt19937_64& rng);

}  // namespace ktune::soak
