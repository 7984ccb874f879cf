#pragma once
// Small valid Matrix Market texts made from a seed: the same seed gives the same bytes, so a
// run can be replayed, and a few dozen seeds make a pool of distinct matrices whose repeated
// uploads the daemon must recognise.
#include <cstdint>
#include <string>

namespace ktune::soak {

// A coordinate matrix of up to 300 rows: real, integer or pattern; general, symmetric or
// skew-symmetric; with comments and varied spacing now and then; at least one entry.
std::string random_matrix_market(uint64_t seed);

}  // namespace ktune::soak
