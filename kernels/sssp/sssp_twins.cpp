#include "kernels/sssp/sssp_twins.h"

#include <cstring>
#include <optional>

#include "kernels/launch_twin.h"

namespace ktune {

namespace {

// sssp_common.cuh's state slots.
constexpr int64_t kItems = 1, kNext = 2, kFar = 3, kSweepItems = 4, kThreshold = 5, kPass = 6;

// Distances are stored as int32 bits (sssp_common.cuh): non-negative floats order as their bits.
template <typename Dist>
Dist from_bits(int32_t bits) {
  Dist d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}
template <typename Dist>
int32_t to_bits(Dist d) {
  int32_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return bits;
}
// The kernel's dist_t addition: an int32 one wraps, as the device's does.
int32_t add(int32_t a, int32_t b) { return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b)); }
float add(float a, float b) { return a + b; }

// sssp_relax, its queue's vertices in order: each offer that beats the head's distance lowers
// it at once (one of the orders the device's atomics allow).
template <typename Dist>
void relax(const LaunchStep& step, PlanMemory& memory, bool delta_stepping) {
  HostArray<const int32_t> row_ptr(memory, "row_ptr"), col_idx(memory, "col_idx");
  HostArray<const Dist> weight(memory, "weights");
  HostArray<int32_t> state(memory, "sssp_state"), queue(memory, "queue"), dist(memory, "distances"),
      stamp(memory, "stamps");
  std::optional<HostArray<int32_t>> pending;
  if (delta_stepping) pending.emplace(memory, "pending");
  const int64_t n = scalar_arg<int32_t>(step, 8), offset = scalar_arg<int32_t>(step, 9);
  const int32_t pass = state[kPass];
  const int64_t current = (pass & 1) * n, next = ((pass + 1) & 1) * n;
  const Dist threshold = from_bits<Dist>(state[kThreshold]);
  for (int32_t i = 0, items = state[kItems]; i < items; ++i) {
    const int32_t v = queue[current + i];
    for (int32_t e = row_ptr[v], end = row_ptr[v + 1]; e < end; ++e) {
      const int32_t w = col_idx[e];
      const int32_t offer = to_bits(add(from_bits<Dist>(dist[offset + v]), weight[e]));
      if (!(offer < dist[offset + w])) continue;
      dist.set(offset + w, offer);
      if (delta_stepping && !(from_bits<Dist>(offer) < threshold)) {
        if (!(*pending)[w]) {
          pending->set(w, 1);
          state.set(kFar, state[kFar] + 1);
        }
        continue;
      }
      if (stamp[w] > pass) continue;  // queued for this pass already
      stamp.set(w, pass + 1);
      const int32_t slot = state[kNext];
      state.set(kNext, slot + 1);
      queue.set(next + slot, w);
    }
  }
}

// sssp_sweep: the far set's vertices now below the threshold join the next pass's queue.
template <typename Dist>
void sweep(const LaunchStep& step, PlanMemory& memory) {
  HostArray<int32_t> state(memory, "sssp_state"), queue(memory, "queue"), dist(memory, "distances"),
      pending(memory, "pending");
  const int64_t n = scalar_arg<int32_t>(step, 4), offset = scalar_arg<int32_t>(step, 5);
  const Dist threshold = from_bits<Dist>(state[kThreshold]);
  const int64_t next = (state[kPass] & 1) * n;
  for (int32_t v = 0, items = state[kSweepItems]; v < items; ++v) {
    if (!pending[v] || !(from_bits<Dist>(dist[offset + v]) < threshold)) continue;
    pending.set(v, 0);
    state.set(kFar, state[kFar] - 1);
    const int32_t slot = state[kItems];
    state.set(kItems, slot + 1);
    queue.set(next + slot, v);
  }
}

template <typename Dist>
LaunchTwins twins_of(const SsspConfig& c) {
  LaunchTwins twins;
  const bool delta_stepping = c.delta_stepping();
  twins["sssp_relax"] = [delta_stepping](const LaunchStep& step, PlanMemory& memory) {
    relax<Dist>(step, memory, delta_stepping);
  };
  if (delta_stepping) twins["sssp_sweep"] = sweep<Dist>;
  return twins;
}

}  // namespace

LaunchTwins sssp_twins(const SsspConfig& c, bool float_weights) {
  return float_weights ? twins_of<float>(c) : twins_of<int32_t>(c);
}

}  // namespace ktune
