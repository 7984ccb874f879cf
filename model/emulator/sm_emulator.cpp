#include "model/emulator/sm_emulator.h"

#include <algorithm>
#include <limits>
#include <string>

#include "workload/input_error.h"

namespace ktune {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr uint32_t kNone = UINT32_MAX;

struct Params {
  std::array<double, kResourceCount> latency{};
  std::array<double, kResourceCount> gap{};
};

struct WarpState {
  const EmuWarp* trace = nullptr;
  uint32_t block_state = 0;
  uint32_t warp_index = 0;
  int scheduler = 0;
  uint32_t slot_in_scheduler = 0;  // index in its scheduler's warps/earl
  uint32_t pc = 0;            // next op
  double floor = 0;           // not before: the block's start, the last barrier's finish
  double earl = kInf;         // earliest issue of ops[pc], scheduler clock aside
  double last_fin = 0;        // latest finish among issued ops
  bool waiting = false;       // at a barrier
  bool done = false;
  size_t barrier_record = SIZE_MAX;
  std::vector<double> fin;    // finish time per op
};

struct BlockState {
  const EmuBlock* block = nullptr;
  uint32_t instance = 0;  // queue position
  int slot = 0;
  uint32_t first_warp = 0;  // its warps are warps_[first_warp, first_warp + warps)
  double start = 0;
  double end = 0;
  uint32_t live = 0;      // warps not yet done
  uint32_t arrived = 0;   // at the current barrier
  double barrier_ready = 0;  // latest arrival / earlier finish among the arrived warps
  // The block's own barrier pipe_admit: a release lies in the future when it is computed,
  // and one SM-wide queue would make other blocks' barriers wait behind it.
  double barrier_admit = 0;
  std::vector<uint32_t> waiting;
};

struct Scheduler {
  double clock = 0;  // earliest next issue (the Issue resource's pipe_admit)
  uint32_t greedy = kNone;
  std::vector<uint32_t> warps;  // oldest first
  std::vector<double> earl;     // warps' earliest issue, side by side for a fast scan
  bool dirty = true;
  double next_time = kInf;
  uint32_t next_warp = kNone;
  std::array<double, kResourceCount> admit{};  // pipe_admit of its own pipes
};

class SmEmulation {
 public:
  SmEmulation(const std::vector<const EmuBlock*>& queue, const EmulatorTiming& timing,
              const SmRunOptions& options)
      : queue_(queue), timing_(timing), options_(options), schedulers_(timing.schedulers) {
    for (size_t r = 0; r < kResourceCount; ++r) {
      base_.latency[r] = timing.table[r].latency;
      base_.gap[r] = timing.table[r].gap;
    }
    perturbed_ = base_;
    if (options.perturbation) {
      const Perturbation& p = *options.perturbation;
      auto& value = p.gap ? perturbed_.gap : perturbed_.latency;
      value[static_cast<size_t>(p.resource)] *= p.factor;
      if (!p.region) base_ = perturbed_;  // every op sees it
    }
    sm_admit_.fill(0);
    result_.blocks.resize(queue.size());
  }

  SmRun run() {
    const int slots = std::min<int>(options_.resident_blocks, static_cast<int>(queue_.size()));
    for (int slot = 0; slot < slots; ++slot) start_block(slot, 0);
    for (;;) {
      int best = -1;
      for (int s = 0; s < static_cast<int>(schedulers_.size()); ++s) {
        Scheduler& sched = schedulers_[s];
        if (sched.dirty) refresh(sched);
        if (sched.next_warp != kNone && (best < 0 || sched.next_time < schedulers_[best].next_time))
          best = s;
      }
      if (best < 0) break;
      issue(best);
    }
    finish_result();
    return std::move(result_);
  }

 private:
  const Params& params_for(const EmuOp& op) const {
    const auto& p = options_.perturbation;
    return p && p->region && *p->region == op.region ? perturbed_ : base_;
  }

  void start_block(int slot, double at) {
    const uint32_t instance = next_in_queue_++;
    const EmuBlock* block = queue_[instance];
    BlockState b;
    b.block = block;
    b.instance = instance;
    b.slot = slot;
    b.start = b.end = at;
    b.live = static_cast<uint32_t>(block->warps.size());
    b.first_warp = static_cast<uint32_t>(warps_.size());
    const uint32_t index = static_cast<uint32_t>(blocks_.size());
    blocks_.push_back(std::move(b));
    // Warp k of the SM's warp slots goes to scheduler k mod schedulers, as the hardware deals
    // a block's warps over its sub-partitions.
    const int warp_slots_base = slot * static_cast<int>(block->warps.size());
    for (uint32_t j = 0; j < block->warps.size(); ++j) {
      WarpState w;
      w.trace = &block->warps[j];
      w.block_state = index;
      w.warp_index = j;
      w.scheduler = (warp_slots_base + static_cast<int>(j)) % timing_.schedulers;
      w.floor = w.last_fin = at;
      w.fin.assign(w.trace->ops.size(), 0);
      const uint32_t id = static_cast<uint32_t>(warps_.size());
      warps_.push_back(std::move(w));
      if (warps_[id].trace->ops.empty()) {
        finish_warp(id);
        continue;
      }
      Scheduler& sched = schedulers_[warps_[id].scheduler];
      warps_[id].slot_in_scheduler = static_cast<uint32_t>(sched.warps.size());
      sched.warps.push_back(id);
      sched.earl.push_back(kInf);
      set_earl(id, earliest(warps_[id]));
    }
    if (block->warps.empty()) complete_block(index);
  }

  double earliest(const WarpState& w) const {
    const EmuOp& op = w.trace->ops[w.pc];
    double e = w.floor;
    for (uint32_t d : op.deps) {
      if (d == kNoDep) continue;
      if (d >= w.pc)
        throw InputError("trace op " + std::to_string(w.pc) + " depends on op " +
                         std::to_string(d) + ", which is not an earlier op of its warp");
      e = std::max(e, w.fin[d]);
    }
    return e;
  }

  // Greedy-then-oldest: keep issuing from the last warp while it is ready; otherwise the warp
  // that can issue first, the oldest on a tie. The clock only moves forward.
  void refresh(Scheduler& sched) {
    sched.dirty = false;
    if (sched.greedy != kNone && !warps_[sched.greedy].done &&
        warps_[sched.greedy].earl <= sched.clock) {
      sched.next_time = sched.clock;
      sched.next_warp = sched.greedy;
      return;
    }
    sched.next_time = kInf;
    sched.next_warp = kNone;
    size_t best = SIZE_MAX;
    double best_earl = kInf;
    for (size_t i = 0; i < sched.earl.size(); ++i) {
      if (sched.earl[i] < best_earl) {
        best_earl = sched.earl[i];
        best = i;
      }
    }
    if (best == SIZE_MAX) return;
    // Every warp ready by the clock ties at the clock: the oldest of them goes.
    if (best_earl < sched.clock) {
      for (size_t i = 0; i < best; ++i)
        if (sched.earl[i] <= sched.clock) {
          best = i;
          break;
        }
    }
    sched.next_time = std::max(sched.clock, best_earl);
    sched.next_warp = sched.warps[best];
  }

  void set_earl(uint32_t id, double earl) {
    WarpState& w = warps_[id];
    w.earl = earl;
    Scheduler& sched = schedulers_[w.scheduler];
    sched.earl[w.slot_in_scheduler] = earl;
    // A warp of a refilled block may land on a scheduler that had run dry (next_warp none):
    // unless it looks again, that warp never issues and its block never ends.
    sched.dirty = true;
  }

  double& pipe_admit(Scheduler& sched, Resource r) {
    return resource_is_per_scheduler(r) ? sched.admit[static_cast<size_t>(r)]
                                        : sm_admit_[static_cast<size_t>(r)];
  }

  void issue(int s) {
    Scheduler& sched = schedulers_[s];
    const uint32_t id = sched.next_warp;
    const double t = sched.next_time;
    WarpState& w = warps_[id];
    const EmuOp& op = w.trace->ops[w.pc];
    const Params& p = params_for(op);
    const size_t issue_r = static_cast<size_t>(Resource::Issue);
    const double issue_gap = p.gap[issue_r] / timing_.issue_per_scheduler;
    sched.clock = t + issue_gap;
    sched.greedy = id;
    sched.dirty = true;
    result_.transactions[issue_r] += 1;
    result_.busy_cycles[issue_r] += issue_gap;
    size_t record = SIZE_MAX;
    if (options_.record_ops) {
      record = result_.ops.size();
      result_.ops.push_back({blocks_[w.block_state].instance, w.warp_index, w.pc, t, t});
    }
    if (op.barrier) {
      BlockState& b = blocks_[w.block_state];
      b.arrived += 1;
      b.barrier_ready = std::max({b.barrier_ready, t, w.last_fin});
      b.waiting.push_back(id);
      w.waiting = true;
      w.barrier_record = record;
      set_earl(id, kInf);
      w.pc += 1;
      if (b.arrived == b.live) release_barrier(w.block_state);
      return;
    }
    double fin = t;
    for (uint8_t u = 0; u < op.use_count; ++u) {
      const ResourceUse& use = op.uses[u];
      const size_t r = static_cast<size_t>(use.resource);
      const double latency = p.latency[r];
      if (use.count == 0) {
        fin = std::max(fin, t + latency);
        continue;
      }
      const double gap = p.gap[r];
      double& admit = pipe_admit(sched, use.resource);
      const double first = std::max(t, admit);  // queue behind earlier requests
      admit = first + use.cost * gap;
      fin = std::max(fin, first + std::max(0.0, use.cost - 1) * gap + latency);
      result_.transactions[r] += use.count;
      result_.busy_cycles[r] += use.cost * gap;
    }
    w.fin[w.pc] = fin;
    w.last_fin = std::max(w.last_fin, fin);
    if (record != SIZE_MAX) result_.ops[record].finish = fin;
    w.pc += 1;
    if (w.pc == w.trace->ops.size()) {
      finish_warp(id);
    } else {
      set_earl(id, earliest(w));
    }
  }

  void release_barrier(uint32_t block_index) {
    BlockState& b = blocks_[block_index];
    const std::vector<uint32_t> waiting = std::move(b.waiting);
    b.waiting.clear();
    const WarpState& first = warps_[waiting.front()];
    const Params& p = params_for(first.trace->ops[first.pc - 1]);
    const size_t r = static_cast<size_t>(Resource::Barrier);
    const double start = std::max(b.barrier_ready, b.barrier_admit);
    b.barrier_admit = start + p.gap[r];
    const double fin = start + p.latency[r];
    result_.transactions[r] += 1;
    result_.busy_cycles[r] += p.gap[r];
    b.arrived = 0;
    b.barrier_ready = 0;
    for (uint32_t id : waiting) {
      WarpState& w = warps_[id];
      w.fin[w.pc - 1] = fin;
      w.last_fin = std::max(w.last_fin, fin);
      w.floor = std::max(w.floor, fin);
      w.waiting = false;
      if (w.barrier_record != SIZE_MAX) result_.ops[w.barrier_record].finish = fin;
      schedulers_[w.scheduler].dirty = true;
      if (w.pc == w.trace->ops.size()) {
        finish_warp(id);
      } else {
        set_earl(id, earliest(w));
      }
    }
  }

  void finish_warp(uint32_t id) {
    WarpState& w = warps_[id];
    w.done = true;
    w.earl = kInf;
    Scheduler& sched = schedulers_[w.scheduler];
    const auto it = std::find(sched.warps.begin(), sched.warps.end(), id);
    if (it != sched.warps.end()) {
      const size_t at = static_cast<size_t>(it - sched.warps.begin());
      sched.warps.erase(it);
      sched.earl.erase(sched.earl.begin() + static_cast<std::ptrdiff_t>(at));
      for (size_t i = at; i < sched.warps.size(); ++i) warps_[sched.warps[i]].slot_in_scheduler = static_cast<uint32_t>(i);
    }
    sched.dirty = true;
    const uint32_t block_index = w.block_state;
    BlockState& b = blocks_[block_index];
    b.end = std::max(b.end, w.last_fin);
    b.live -= 1;
    if (b.live == 0) {
      complete_block(block_index);
    } else if (b.arrived > 0 && b.arrived == b.live) {
      release_barrier(block_index);  // the warps still running all wait at the barrier
    }
  }

  void complete_block(uint32_t block_index) {
    const BlockState& b = blocks_[block_index];
    result_.blocks[b.instance] = {b.block->block, b.start, b.end};
    result_.cycles = std::max(result_.cycles, b.end);
    for (uint32_t i = 0; i < b.block->warps.size(); ++i)
      std::vector<double>().swap(warps_[b.first_warp + i].fin);  // done with its times
    if (next_in_queue_ < queue_.size()) start_block(b.slot, b.end);
  }

  void finish_result() {
    for (size_t r = 0; r < kResourceCount; ++r) {
      const double copies = resource_is_per_scheduler(static_cast<Resource>(r)) ? timing_.schedulers : 1;
      const double capacity = result_.cycles * copies;
      result_.utilisation[r] = capacity > 0 ? std::min(1.0, result_.busy_cycles[r] / capacity) : 0;
    }
  }

  const std::vector<const EmuBlock*>& queue_;
  const EmulatorTiming& timing_;
  const SmRunOptions& options_;
  Params base_;
  Params perturbed_;
  std::vector<Scheduler> schedulers_;
  std::array<double, kResourceCount> sm_admit_{};
  std::vector<WarpState> warps_;
  std::vector<BlockState> blocks_;
  uint32_t next_in_queue_ = 0;
  SmRun result_;
};

}  // namespace

SmRun emulate_sm(const std::vector<const EmuBlock*>& queue, const EmulatorTiming& timing,
                 const SmRunOptions& options) {
  if (timing.schedulers < 1 || timing.issue_per_scheduler < 1)
    throw InputError("the emulator needs at least one scheduler issuing at least once per cycle");
  if (options.resident_blocks < 1) throw InputError("resident_blocks must be at least 1");
  for (const EmuBlock* b : queue)
    if (b == nullptr) throw InputError("null block in the emulation queue");
  return SmEmulation(queue, timing, options).run();
}

}  // namespace ktune
