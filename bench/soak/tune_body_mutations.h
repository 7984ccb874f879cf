#pragma once
// Malformed POST /v1/tune bodies: valid requests with a field of the wrong type, an unknown or
// missing field, a number out of any range, invalid UTF-8, deep nesting (up to 100,000 levels
// inside "workload"), hostile paths (NULs, 5,000 characters, "../"), or broken JSON text.
// The valid requests they start from ask for little work (one compile of a small matrix) and
// never wait, so a mutation that stays valid costs the daemon next to nothing.
#include <random>
#include <string>

#include "bench/soak/upload_mutations.h"

namespace ktune::soak {

// `upload_id` is a small matrix already uploaded; "small.mtx" must be in the data dir.
FuzzedBody fuzz_tune_body(const std::string& upload_id, std::mt19937_64& rng);

}  // namespace ktune::soak
