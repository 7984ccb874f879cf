#include "search/saake_walk.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <set>

#include "workload/cancellation.h"

namespace ktune {
namespace {

// Occupancies closer than this are one level (they come from integer block counts).
constexpr double kOccupancyEpsilon = 1e-9;

double share(const std::map<std::string, double>& per_resource, const std::string& resource) {
  auto it = per_resource.find(resource);
  return it == per_resource.end() ? 0 : it->second;
}

// Latency-bound: raise the bottleneck resource's utilisation by moving along the direction
// that raises it most, as many unit steps as linear extrapolation says saturate it.
std::optional<Config> latency_move(SaakeOracle& oracle, const std::vector<CanonicalDirection>& directions,
                                   const Config& conf, const OracleView& view, const SaakeLimits& limits) {
  const std::string& r = view.bottleneck.resource;
  const CanonicalDirection* chosen = nullptr;
  double best_u = -std::numeric_limits<double>::infinity();
  for (const CanonicalDirection& d : directions) {
    std::optional<Config> c = d.step(conf);
    if (!c) continue;
    std::optional<OracleView> v = oracle.evaluate(*c);
    if (!v) continue;
    const double u = share(v->utilisation, r);
    if (u > best_u) best_u = u, chosen = &d;  // strict: the first declared direction wins ties
  }
  const double u0 = share(view.utilisation, r);
  const double du = best_u - u0;
  if (!chosen || !(du > 0)) return std::nullopt;
  // Smallest K >= 1 with U + dU·K >= 1 (the listing's K − 1 counts the step already taken
  // in the unit-stride probe; here K counts every step from conf).
  const int k = std::clamp(static_cast<int>(std::ceil((1 - u0) / du - 1e-12)), 1, std::max(1, limits.max_stride));
  Config c = conf;
  for (int i = 0; i < k; ++i) {
    std::optional<Config> next = chosen->step(c);
    if (!next || !oracle.evaluate(*next)) break;  // stop at the edge of the space
    c = std::move(*next);
  }
  return c;
}

// Configurations within `depth` unit steps of `conf`, breadth first, `conf` excluded.
std::vector<Config> neighbourhood(const std::vector<CanonicalDirection>& directions, const Config& conf, int depth) {
  std::vector<Config> out;
  std::set<Config> seen{conf};
  std::deque<std::pair<Config, int>> queue{{conf, 0}};
  while (!queue.empty()) {
    auto [c, d] = queue.front();
    queue.pop_front();
    if (d == depth) continue;
    for (const CanonicalDirection& dir : directions) {
      std::optional<Config> next = dir.step(c);
      if (!next || !seen.insert(*next).second) continue;
      out.push_back(*next);
      queue.emplace_back(std::move(*next), d + 1);
    }
  }
  return out;
}

// Throughput-bound: give up occupancy down to the level where the bottleneck would change,
// and among the moves that still reach that occupancy take the one with the fewest
// transactions to the resource that is the bottleneck there.
std::optional<Config> throughput_move(SaakeOracle& oracle, const std::vector<CanonicalDirection>& directions,
                                      const Config& conf, const OracleView& view, const SaakeLimits& limits) {
  double target = view.occupancy;
  WalkBottleneck bott = view.bottleneck;
  const std::vector<double> levels = oracle.lower_occupancies(conf);
  bool changed = false;
  for (double o : levels) {
    std::optional<WalkBottleneck> b = oracle.bottleneck_at(conf, o);
    if (b && *b != view.bottleneck) {
      target = o, bott = *b, changed = true;
      break;
    }
  }
  // The bottleneck holds at every lower level: all of that occupancy may be given up.
  if (!changed && !levels.empty()) target = *std::min_element(levels.begin(), levels.end());

  const double here = share(view.transactions, bott.resource);
  std::optional<Config> chosen;
  double fewest = here, chosen_time = view.time_us;
  for (Config& c : neighbourhood(directions, conf, limits.max_combination)) {
    std::optional<OracleView> v = oracle.evaluate(c);
    if (!v || v->occupancy < target - kOccupancyEpsilon) continue;
    const double t = share(v->transactions, bott.resource);
    // Fewer transactions than conf has; among equals, the faster prediction, then BFS order.
    if (t < fewest || (chosen && t == fewest && v->time_us < chosen_time)) {
      fewest = t, chosen_time = v->time_us, chosen = std::move(c);
    }
  }
  return chosen;
}

// Algorithm 3 proposed nothing new (its direction is blocked, or it leads back to a visited
// configuration). Before calling that a fixed point, try the other canonical directions: one
// unit step along each, unvisited, and take the fastest predicted if it beats `conf`. Without
// this the walk ended after one or two moves, usually where the bottleneck's preferred
// direction ran off the space, although a sibling direction still promised a faster kernel.
std::optional<Config> escape_move(SaakeOracle& oracle, const std::vector<CanonicalDirection>& directions,
                                  const Config& conf, const OracleView& view, const std::set<Config>& visited) {
  std::optional<Config> chosen;
  double fastest = view.time_us;
  for (const CanonicalDirection& d : directions) {
    std::optional<Config> c = d.step(conf);
    if (!c || visited.count(*c)) continue;
    std::optional<OracleView> v = oracle.evaluate(*c);
    if (v && v->time_us < fastest) fastest = v->time_us, chosen = std::move(c);  // strict: declared order wins ties
  }
  return chosen;
}

}  // namespace

std::optional<Config> saake_next_best(SaakeOracle& oracle, const std::vector<CanonicalDirection>& directions,
                                      const Config& conf, const OracleView& view, const SaakeLimits& limits) {
  return view.bottleneck.kind == WalkBottleneckKind::Latency ? latency_move(oracle, directions, conf, view, limits)
                                                         : throughput_move(oracle, directions, conf, view, limits);
}

SaakeWalk saake_walk(SaakeOracle& oracle, const std::vector<CanonicalDirection>& directions, const Config& start,
                     const SaakeLimits& limits) {
  SaakeWalk walk;
  std::optional<OracleView> view = oracle.evaluate(start);
  if (!view) {
    walk.stop = "no-start";
    return walk;
  }
  constexpr double kNone = std::numeric_limits<double>::infinity();
  struct Kept {
    double time_us = kNone;
    std::optional<Config> config;
  };
  Kept best{view->time_us, start}, prev;
  Config curr = start;
  double occ = view->occupancy;
  std::set<Config> visited{start};
  walk.path.push_back(start);
  walk.stop = "cap";
  for (int step = 0; step < limits.max_steps; ++step) {
    std::optional<Config> next = saake_next_best(oracle, directions, curr, *view, limits);
    if (!next || visited.count(*next) || !oracle.evaluate(*next)) {
      next = escape_move(oracle, directions, curr, *view, visited);
    }
    std::optional<OracleView> next_view = next ? oracle.evaluate(*next) : std::nullopt;
    if (!next_view) {
      walk.stop = "fixed-point";
      break;
    }
    visited.insert(*next);
    walk.path.push_back(*next);
    if (next_view->occupancy < occ - kOccupancyEpsilon) {  // entered a lower occupancy level
      if (best.time_us >= prev.time_us) {                  // the level just left lost to the one before
        walk.stop = "level";
        best = Kept{};
        break;
      }
      prev = best;
      best = Kept{};
    }
    if (next_view->time_us < best.time_us) best = Kept{next_view->time_us, *next};
    occ = next_view->occupancy;
    curr = std::move(*next);
    view = std::move(next_view);
  }
  // Algorithm 2 returns prev; a walk cut short (fixed point, cap) may hold a better best.
  const Kept& chosen = best.time_us < prev.time_us ? best : prev;
  walk.best = chosen.config;
  walk.predicted_us = chosen.time_us;
  return walk;
}

namespace {

std::vector<SaakeWalk> fastest_first(std::vector<SaakeWalk> walks) {
  std::stable_sort(walks.begin(), walks.end(),
                   [](const SaakeWalk& a, const SaakeWalk& b) { return a.predicted_us < b.predicted_us; });
  return walks;
}

}  // namespace

std::vector<SaakeWalk> saake_search(SaakeOracle& oracle, const CanonicalMoves& moves, const SaakeLimits& limits) {
  std::vector<SaakeWalk> walks;
  for (const Config& start : moves.starts) walks.push_back(saake_walk(oracle, moves.directions, start, limits));
  return fastest_first(std::move(walks));
}

std::vector<SaakeWalk> saake_search(const std::function<SaakeOracle&(size_t start)>& oracle_for,
                                    const CanonicalMoves& moves, ThreadPool& pool, const SaakeLimits& limits) {
  std::vector<std::future<SaakeWalk>> running;
  PendingTasks pending(running);  // the walks read `moves` and the oracles: done before this frame ends
  for (size_t i = 0; i < moves.starts.size(); ++i) {
    SaakeOracle& oracle = oracle_for(i);
    running.push_back(pool.submit([&oracle, &moves, &limits, i] {
      throw_if_cancelled();
      return saake_walk(oracle, moves.directions, moves.starts[i], limits);
    }));
  }
  std::vector<SaakeWalk> walks;
  for (std::future<SaakeWalk>& w : running) walks.push_back(w.get());
  return fastest_first(std::move(walks));
}

}  // namespace ktune
