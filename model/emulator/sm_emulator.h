#pragma once
// Algorithm 1 of digest-000 §2.5 (SAAKE's abstract kernel emulation) on one SM, over the
// dynamic traces of sampled blocks, with the digest's fixes:
//   - several warp schedulers (warps dealt round-robin), each issuing issue_per_scheduler
//     instructions per Issue gap, greedy-then-oldest among its own warps;
//   - one pipe_admit per resource (per scheduler for the arithmetic pipes, per SM for the
//     memory side: resource_is_per_scheduler); an op of cost k (its transactions, weighted
//     by line for global accesses) holds the pipe k gaps, and finishes a latency after its
//     last admission;
//   - issue events are processed in time order across schedulers, and no clock moves back;
//   - bar.sync: a Barrier op completes (plus the barrier's latency) once every live warp of
//     the block has reached it and all their earlier ops have finished; each block has its
//     own barrier pipe (the gap spaces its consecutive barriers);
//   - blocks are resident in `resident_blocks` slots and a finished block's slot takes the
//     next block of the queue, so a sampled block can be timed under steady contention.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "model/emulator/emu_program.h"
#include "model/resource.h"

namespace ktune {

struct EmulatorTiming {
  ResourceTable table{};
  int schedulers = 4;
  int issue_per_scheduler = 1;
};

// One parameter raised for sensitivity analysis, for every op or only those of one region.
struct Perturbation {
  Resource resource = Resource::Dram;
  bool gap = false;  // false: latency
  double factor = 1.1;
  std::optional<uint32_t> region;
};

struct SmRunOptions {
  int resident_blocks = 1;
  bool record_ops = false;
  std::optional<Perturbation> perturbation;
};

// When one op of one block instance issued and finished (cycles); for tests and debugging.
struct OpRecord {
  uint32_t instance = 0;  // position in the queue
  uint32_t warp = 0;
  uint32_t op = 0;
  double issue = 0;
  double finish = 0;
};

struct BlockRun {
  int64_t block = 0;
  double start = 0;
  double end = 0;  // the last finish of its ops
};

struct SmRun {
  double cycles = 0;               // the last finish of any op
  std::vector<BlockRun> blocks;    // one per queue position
  std::array<double, kResourceCount> transactions{};
  std::array<double, kResourceCount> busy_cycles{};  // admissions x gap
  std::array<double, kResourceCount> utilisation{};  // busy / (cycles x copies), in [0, 1]
  std::vector<OpRecord> ops;       // in issue order, when asked for
};

// Runs the queue of blocks through one SM. Throws InputError on a malformed program
// (a dependence on a later op, no schedulers).
SmRun emulate_sm(const std::vector<const EmuBlock*>& queue, const EmulatorTiming& timing,
                 const SmRunOptions& options);

}  // namespace ktune
