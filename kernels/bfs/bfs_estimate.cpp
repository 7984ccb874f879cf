#include "kernels/bfs/bfs_estimate.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "kernels/graph/expansion_work.h"

namespace ktune {

namespace {

enum class Mode { PushQueue, PushBitmap, Pull };

// A level's end (bfs_control.cu): one thread reads the counts the expansion left, then sets the
// next level's, each waiting on the last.
constexpr double kLevelEndRoundTrips = 2;
// A pushed edge: its head's index, then the head's depth (then, for a new vertex, its claim).
constexpr int32_t kEdgeRoundTrips = 2;

// bfs_control.cu's push_mode and next_mode: how a level reads its frontier and which way it
// runs, decided from the frontier the level before discovered.
Mode push_mode(const BfsConfig& c, double frontier, double n) {
  switch (c.frontier) {
    case BfsFrontier::Queue: return Mode::PushQueue;
    case BfsFrontier::Bitmap: return Mode::PushBitmap;
    case BfsFrontier::Hybrid: break;
  }
  return frontier > std::floor(n / std::ldexp(1.0, c.dense_shift)) ? Mode::PushBitmap : Mode::PushQueue;
}

Mode next_mode(const BfsConfig& c, Mode mode, double frontier, double previous, double frontier_edges,
               double unvisited_edges, double n) {
  switch (c.direction) {
    case BfsDirection::Push: return push_mode(c, frontier, n);
    case BfsDirection::Pull: return Mode::Pull;
    case BfsDirection::Optimising: break;
  }
  if (mode == Mode::Pull) return frontier < previous && frontier * c.beta < n ? push_mode(c, frontier, n) : Mode::Pull;
  return frontier_edges * c.alpha > unvisited_edges ? Mode::Pull : push_mode(c, frontier, n);
}

}  // namespace

WorkEstimate estimate_bfs(const Workload& w, const BfsShape& shape, const BfsConfig& c,
                          const std::vector<BfsLevel>& levels) {
  const double n = std::max(1, shape.vertices);
  const double m = std::max<double>(1, static_cast<double>(shape.edges));
  const double sources = static_cast<double>(shape.sources.size());
  // The schedules that give a vertex to a thread, warp or block (the others share out edges).
  const bool stops_at_parent = c.balance == BfsBalance::Thread || c.balance == BfsBalance::Warp ||
                               c.balance == BfsBalance::Block;
  // One source's levels in the modes the configuration's switches choose, as the device does.
  // `rounds`: the expansions' share of one expansion over every vertex's edges (the profile
  // below). Where a thread, warp or block takes a vertex, a level's share is the larger of its
  // edges' and its items' (a vertex costs its rounds however few edges it has); where a group
  // shares out its vertices' edges, an item without edges costs next to nothing.
  double push_edges = 0, bytes = 0, rounds = 0;
  std::vector<SequentialStep> level_steps;  // one source's levels: their rounds, then shares
  const ExpansionSchedule schedule{static_cast<int>(c.balance), c.block, c.coarsen, 1, kEdgeRoundTrips};
  const auto share = [&](double scanned, double items) {
    return stops_at_parent ? std::max(scanned / m, items / n) : scanned / m;
  };
  if (!levels.empty()) {
    double unvisited = m - static_cast<double>(levels[0].frontier_edges);
    double unreached = n - 1;  // vertices a pull at this level still looks at
    Mode mode = next_mode(c, Mode::PushQueue, 1, 0, static_cast<double>(levels[0].frontier_edges), m, n);
    for (size_t l = 0; l < levels.size(); ++l) {
      const BfsLevel& level = levels[l];
      const double frontier = static_cast<double>(level.frontier), edges = static_cast<double>(level.frontier_edges);
      switch (mode) {
        case Mode::PushQueue:   // queue entries, row bounds; each edge's head and its depth (a sector)
        case Mode::PushBitmap:  // or the whole bitmap swept for the frontier's bits
          push_edges += edges;
          bytes += (mode == Mode::PushQueue ? frontier * 16 : n / 8 + frontier * 12) + edges * (4 + 32);
          // A sweep of the bitmap tests every vertex's bit: its items are all n.
          level_steps.push_back(
              {share(edges, frontier),
               expansion_chain_round_trips(schedule, {mode == Mode::PushQueue ? level.frontier : shape.vertices,
                                                      level.frontier_edges, level.longest_push})});
          break;
        case Mode::Pull: {  // every vertex's depth checked; in-edges against the frontier's bits
          const double scanned =
              static_cast<double>(stops_at_parent ? level.pull_edges_first : level.pull_edges_whole);
          bytes += n * 4 + scanned * (4 + 4);
          level_steps.push_back({share(scanned, unreached),
                                 expansion_chain_round_trips(schedule, {static_cast<int64_t>(unreached),
                                                                        static_cast<int64_t>(scanned), level.longest_pull})});
          break;
        }
      }
      rounds += level_steps.back().share;
      level_steps.back().chain_rounds += kLevelEndRoundTrips;
      if (l + 1 == levels.size()) break;
      const BfsLevel& next_level = levels[l + 1];
      const double next_frontier = static_cast<double>(next_level.frontier);
      unreached -= next_frontier;
      const double next_edges = static_cast<double>(next_level.frontier_edges);
      unvisited -= next_edges;
      const Mode next = next_mode(c, mode, next_frontier, frontier, next_edges, unvisited, n);
      if (mode == Mode::PushQueue && next != Mode::PushQueue) bytes += next_frontier * 8;  // to the bitmap
      if (mode != Mode::PushQueue && next == Mode::PushQueue) bytes += n / 8 + next_frontier * 4;  // to a queue
      mode = next;
    }
  }
  WorkEstimate e;
  e.dram_bytes = sources * bytes;
  e.gather_bytes = sources * push_edges * 32;  // the pushed heads' depths
  e.gather_footprint = n * 4;
  e.threads_per_block = c.block;
  const std::shared_ptr<const ExpansionWork> expansion = expansion_work(w, schedule);
  e.warp_work.assign(expansion->warp_work.begin(), expansion->warp_work.end());
  e.blocks = expansion->blocks;
  for (float& work : e.warp_work) work *= rounds * sources;
  for (SequentialStep& step : level_steps) step.share = rounds > 0 ? step.share / rounds : 0;
  e.steps = std::move(level_steps);
  e.step_repeats = static_cast<int64_t>(sources);
  e.loop_iterations = sources * static_cast<double>(levels.size());
  e.unit_waits_on_load = true;  // a round reads the head's depth (or visit bit) at the index it just read
  e.rounds_read_dram = true;     // and expands each vertex once in the run
  return e;
}

double bfs_min_bytes(const BfsShape& shape) {
  const double n = shape.vertices;
  const double per_vertex = 4 + 8 + 8 + (shape.parents ? 4 : 0);
  return static_cast<double>(shape.sources.size()) * (4 * static_cast<double>(shape.edges) + per_vertex * n);
}

}  // namespace ktune
