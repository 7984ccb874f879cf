#pragma once
// The SAAKE model-driven walk (digest-000 §2.9, Algorithms 2 and 3): from an initial
// configuration, move along the family's canonical directions where the model says the
// bottleneck wants to go, through decreasing occupancy levels, and keep the best predicted
// configuration of each level. Nothing is measured; the result seeds the measured search.
// Fixes to the published listing (§2.9, "Ambiguities"): the walk continues from curr'; it
// stops at a fixed point and after a cap of steps; the latency branch uses the utilisation of
// the bottleneck resource r, not of GM. A fixed point is where Algorithm 3 proposes nothing
// new (no move, or a visited configuration) and no unvisited unit step along any other
// canonical direction is predicted faster than the current configuration.
#include <cstddef>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "gpu/thread_pool.h"
#include "kernels/kernel_family.h"
#include "search/saake_oracle.h"

namespace ktune {

struct SaakeLimits {
  int max_steps = 32;        // moves of the outer loop (Algorithm 2) per walk
  int max_stride = 8;        // unit steps one latency move may take along a direction
  int max_combination = 3;   // unit steps combined into one throughput-branch candidate
};

struct SaakeWalk {
  std::optional<Config> best;  // empty when the start cannot run
  double predicted_us = std::numeric_limits<double>::infinity();
  // "level": a finished occupancy level did not beat the one before (Algorithm 2's exit);
  // "fixed-point": no move and no faster unvisited unit step (see above); "cap"; "no-start".
  std::string stop;
  std::vector<Config> path;  // every configuration visited, in order, the start first
};

// Algorithm 3: the configuration the model suggests after `conf` (whose view is `view`), or
// nothing when no direction promises anything.
std::optional<Config> saake_next_best(SaakeOracle& oracle, const std::vector<CanonicalDirection>& directions,
                                      const Config& conf, const OracleView& view, const SaakeLimits& limits);

// Algorithm 2 from one start.
SaakeWalk saake_walk(SaakeOracle& oracle, const std::vector<CanonicalDirection>& directions, const Config& start,
                     const SaakeLimits& limits = {});

// One walk per start; the fastest predicted result first (ties: the earlier start).
std::vector<SaakeWalk> saake_search(SaakeOracle& oracle, const CanonicalMoves& moves, const SaakeLimits& limits = {});

// The same walks side by side on `pool`, start i's on `oracle_for(i)`: each walk is a chain
// of dependent model calls, but the walks from different starts share nothing, so a family
// with a start per schedule walks in the time of its longest walk. The oracles must be
// distinct objects (an oracle memoises without locks).
std::vector<SaakeWalk> saake_search(const std::function<SaakeOracle&(size_t start)>& oracle_for,
                                    const CanonicalMoves& moves, ThreadPool& pool, const SaakeLimits& limits = {});

}  // namespace ktune
