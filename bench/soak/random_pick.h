#pragma once
// Uniform draws for the generators of requests: every choice comes from one seeded engine,
// so that a run can be replayed.
#include <random>
#include <vector>

namespace ktune::soak {

// A number in [0, n); 0 when n is 0.
inline size_t below(std::mt19937_64& rng, size_t n) {
  return n == 0 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(rng);
}

template <typename T>
const T& one_of(std::mt19937_64& rng, const std::vector<T>& items) {
  return items[below(rng, items.size())];
}

}  // namespace ktune::soak
