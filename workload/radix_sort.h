#pragma once
// Parallel least-significant-digit radix sort of 64-bit keys: for tens of millions of keys,
// several times faster than comparison sorting.
#include <cstdint>
#include <vector>

namespace ktune {

// Sorts `keys`, all of which are below 2^key_bits, ascending.
void radix_sort(std::vector<uint64_t>& keys, int key_bits);

}  // namespace ktune
