#pragma once
// Malformed Matrix Market uploads: mutations of valid texts that a careless or hostile client
// might send (byte flips, truncation, invalid UTF-8, NULs, absurd sizes and entries, extra
// tokens, very long lines, broken banners, gzip-wrapped and broken gzip, garbage, nothing).
// Some stay valid by chance, as some real uploads would.
#include <random>
#include <string>
#include <vector>

namespace ktune::soak {

struct FuzzedBody {
  std::string bytes;
  std::string description;  // what was done, to reproduce a finding by hand
};

// Derives one upload from one of `seeds` (valid texts), drawing every choice from `rng`.
FuzzedBody fuzz_upload(const std::vector<std::string>& seeds, std::mt19937_64& rng);

}  // namespace ktune::soak
