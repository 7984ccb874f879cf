#pragma once
// The launches and program of one SSSP configuration: distances filled with the unreached value
// once, then per source a start and a loop of relaxation passes until the queue (and, for
// delta-stepping, the far set) is empty (sssp_control.cu decides each pass on the device).
#include <cstdint>
#include <vector>

#include "kernels/launch_plan.h"
#include "kernels/sssp/sssp_config.h"

namespace ktune {

// What the launches depend on besides the configuration: no data of the graph but its sizes,
// its weights' scale and the distances' type.
struct SsspShape {
  int32_t vertices = 0;
  int64_t edges = 0;
  std::vector<int32_t> sources;
  bool float_weights = false;  // f32 distances, else i32
  double mean_weight = 1;      // Δ's unit
  double max_weight = 1;       // with Δ, bounds delta-stepping's passes
};

// Δ in distance units: `delta` mean edge weights, a whole number for integer weights.
double sssp_delta(const SsspShape& shape, const SsspConfig& c);
// The int32 slots of the "sssp_state" buffer (sssp_common.cuh's STATE_ slots); the loop stops
// when slot 0 is zero.
constexpr uint32_t kSsspStateSlots = 8;
// The unreached distance's bits: INT_MAX for i32, +inf for f32.
uint32_t sssp_unreached_bits(bool float_weights);

std::vector<LaunchStep> sssp_launches(const SsspShape& shape, const SsspConfig& c);
std::vector<PlanOp> sssp_program(const SsspShape& shape, const SsspConfig& c);
// The program's traversals, one per source, as alike units. (BFS's are not marked: counted as
// repeats of those followed, its sources ranked R-MAT 20's configurations at ρ -0.64.)
AlikeUnits sssp_alike_units(const SsspShape& shape, const SsspConfig& c);
// The scratch buffers and the "distances" output the launches name (the graph's inputs aside).
std::vector<DeviceBuffer> sssp_work_buffers(const SsspShape& shape);
// The most passes a source's loop may run; it only stops a wrong kernel. Bellman-Ford: one
// per vertex (a shortest path's edges). Delta-stepping adds one empty pass per bucket up to
// the longest possible distance.
int sssp_max_passes(const SsspShape& shape, const SsspConfig& c);

}  // namespace ktune
