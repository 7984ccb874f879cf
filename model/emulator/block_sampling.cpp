#include "model/emulator/block_sampling.h"

#include <algorithm>
#include <numeric>

#include "workload/input_error.h"

namespace ktune {
namespace {

// splitmix64: a portable generator (std:: distributions differ between libraries).
uint64_t next_random(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

std::vector<int64_t> choose_sample_blocks(const std::vector<double>& block_weights,
                                          const SamplePlan& plan, const std::vector<double>& block_spans) {
  if (plan.heaviest < 0 || plan.random < 0 || plan.longest < 0) throw InputError("sample counts must not be negative");
  const int64_t blocks = static_cast<int64_t>(block_weights.size());
  const bool spans = !block_spans.empty();
  if (spans && block_spans.size() != block_weights.size())
    throw InputError("block spans must be one per block, as the weights are");
  const int64_t longest = spans ? plan.longest : 0;
  const int64_t wanted = static_cast<int64_t>(plan.heaviest) + longest + plan.random;
  std::vector<int64_t> order(static_cast<size_t>(blocks));
  std::iota(order.begin(), order.end(), 0);
  if (blocks <= wanted) return order;

  const auto heavier = [&](int64_t a, int64_t b) {
    return block_weights[a] != block_weights[b] ? block_weights[a] > block_weights[b] : a < b;
  };
  std::partial_sort(order.begin(), order.begin() + plan.heaviest, order.end(), heavier);
  std::vector<char> taken(static_cast<size_t>(blocks), 0);
  for (int64_t i = 0; i < plan.heaviest; ++i) taken[static_cast<size_t>(order[i])] = 1;
  // partial_sort leaves the rest in an order of the library's choosing: restore index order
  // (in one pass, not a sort: a large grid has millions of blocks).
  auto rest_at = order.begin() + plan.heaviest;
  for (int64_t b = 0; b < blocks; ++b)
    if (!taken[static_cast<size_t>(b)]) *rest_at++ = b;
  // A partial Fisher-Yates shuffle of the rest picks run starts without repeats; each start
  // brings its successors not taken yet, until `random` blocks are in.
  std::vector<int64_t> chosen(order.begin(), order.begin() + plan.heaviest);
  if (longest > 0) {
    std::vector<int64_t> rest;
    for (int64_t b = 0; b < blocks; ++b)
      if (!taken[static_cast<size_t>(b)]) rest.push_back(b);
    const int64_t count = std::min<int64_t>(longest, static_cast<int64_t>(rest.size()));
    std::partial_sort(rest.begin(), rest.begin() + count, rest.end(), [&](int64_t a, int64_t b) {
      return block_spans[a] != block_spans[b] ? block_spans[a] > block_spans[b] : a < b;
    });
    for (int64_t i = 0; i < count; ++i) {
      taken[static_cast<size_t>(rest[i])] = 1;
      chosen.push_back(rest[i]);
    }
  }
  const int64_t run = std::max(1, plan.run);
  uint64_t state = plan.seed;
  for (int64_t i = plan.heaviest; i < blocks && static_cast<int64_t>(chosen.size()) < wanted; ++i) {
    const uint64_t span = static_cast<uint64_t>(blocks - i);
    std::swap(order[i], order[i + static_cast<int64_t>(next_random(state) % span)]);
    for (int64_t b = order[i]; b < std::min(blocks, order[i] + run) && static_cast<int64_t>(chosen.size()) < wanted; ++b) {
      if (taken[static_cast<size_t>(b)]) continue;
      taken[static_cast<size_t>(b)] = 1;
      chosen.push_back(b);
    }
  }
  order.swap(chosen);
  std::sort(order.begin(), order.end());
  return order;
}

}  // namespace ktune
