#include "model/emulator/kernel_emulation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "model/emulator/block_schedule.h"
#include "model/occupancy.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

void check_input(const KernelEmulationInput& in) {
  if (in.samples.empty()) throw InputError("kernel emulation needs at least one sampled block");
  if (in.block_weights.empty()) throw InputError("kernel emulation needs the grid's block weights");
  if (in.threads_per_block < 1) throw InputError("threads_per_block must be positive");
  if (in.launches < 1) throw InputError("launches must be at least 1");
  if (in.gpu.sms < 1 || in.gpu.schedulers_per_sm < 1 || in.gpu.issue_per_scheduler < 1)
    throw InputError("GPU description '" + in.gpu.arch + "' lacks the emulator's figures");
  for (double w : in.block_weights)
    if (!std::isfinite(w) || w < 0) throw InputError("block weights must be finite and >= 0");
  if (!in.block_spans.empty() && in.block_spans.size() != in.block_weights.size())
    throw InputError("block spans must be one per block, as the weights are");
  for (double s : in.block_spans)
    if (!std::isfinite(s) || s < 0) throw InputError("block spans must be finite and >= 0");
  const int64_t blocks = static_cast<int64_t>(in.block_weights.size());
  for (const BlockTrace& b : in.samples)
    if (b.block < 0 || b.block >= blocks)
      throw InputError("sampled block " + std::to_string(b.block) + " is outside the grid of " +
                       std::to_string(blocks) + " blocks");
}

// The grid's work over the sampled blocks' work; by block count when weights say nothing.
double grid_scale(const KernelEmulationInput& in) {
  const double total = std::accumulate(in.block_weights.begin(), in.block_weights.end(), 0.0);
  double sampled = 0;
  for (const BlockTrace& b : in.samples) sampled += in.block_weights[static_cast<size_t>(b.block)];
  if (total > 0 && sampled > 0) return total / sampled;
  return static_cast<double>(in.block_weights.size()) / static_cast<double>(in.samples.size());
}

// Static and dynamic shared memory of one block: what occupancy and the L1 carveout see.
int shared_bytes_per_block(const KernelEmulationInput& in) { return in.usage.shared_bytes + in.dynamic_shared_bytes; }

int resident_blocks(const KernelEmulationInput& in, const KernelEmulationOptions& options) {
  int resident = options.resident_blocks;
  if (resident <= 0) {
    const Occupancy occ = occupancy(in.gpu, in.threads_per_block, in.usage.registers, shared_bytes_per_block(in));
    if (occ.blocks_per_sm == 0)
      throw InputError("a block of " + std::to_string(in.threads_per_block) +
                       " threads does not fit on an SM of " + in.gpu.arch + ": " + occ.limiter);
    resident = occ.blocks_per_sm;
  }
  // A grid that does not fill every SM leaves fewer blocks on each.
  const int64_t blocks = static_cast<int64_t>(in.block_weights.size());
  const int64_t per_sm = (blocks + in.gpu.sms - 1) / in.gpu.sms;
  return static_cast<int>(std::min<int64_t>(resident, per_sm));
}

// Grids of more than one wave and at most this many: their last wave, with fewer blocks
// resident and less contention, is a large part of the kernel, and the busiest SM's own blocks
// are few enough to emulate (fill and samples are about three resident sets already). On the
// H200, R-MAT 16's best adaptive grid (1.8 waves) ran in 0.73x the time that full contention
// for every block predicted (bench/NOTES.md, "The last wave").
constexpr double kTailWaves = 4;

// The sampled program that stands for block `b`: its own when sampled, else the one nearest in
// weight and span (each relative to the samples' mean).
const EmuBlock& stand_in(const PreparedKernel& k, int64_t b) {
  const bool spans = !k.block_spans.empty();
  double mean_weight = 0, mean_span = 0;
  for (const EmuBlock& p : k.programs.blocks) {
    mean_weight += k.block_weights[static_cast<size_t>(p.block)];
    if (spans) mean_span += k.block_spans[static_cast<size_t>(p.block)];
  }
  const double n = static_cast<double>(k.programs.blocks.size());
  mean_weight = std::max(mean_weight / n, 1e-9);
  mean_span = std::max(mean_span / n, 1e-9);
  const EmuBlock* best = &k.programs.blocks.front();
  double best_distance = std::numeric_limits<double>::infinity();
  for (const EmuBlock& p : k.programs.blocks) {
    if (p.block == b) return p;
    const size_t i = static_cast<size_t>(b), j = static_cast<size_t>(p.block);
    double distance = std::abs(k.block_weights[i] - k.block_weights[j]) / mean_weight;
    if (spans) distance += std::abs(k.block_spans[i] - k.block_spans[j]) / mean_span;
    if (distance < best_distance) {
      best_distance = distance;
      best = &p;
    }
  }
  return *best;
}

// The busiest SM (by the fitted block times) run with its own blocks, each played by its
// stand-in: the SM's time with contention that falls as its last blocks finish.
double busiest_sm_cycles(const PreparedKernel& k, const std::vector<double>& block_cycles, SmRunOptions options) {
  std::vector<const EmuBlock*> queue;
  for (int64_t b : busiest_sm_blocks(block_cycles, k.block_slots, k.active_sms)) queue.push_back(&stand_in(k, b));
  options.record_ops = false;
  return emulate_sm(queue, k.timing, options).cycles;
}

}  // namespace

PreparedKernel prepare_kernel(const KernelEmulationInput& in, const KernelEmulationOptions& options) {
  check_input(in);
  PreparedKernel k;
  k.resident_blocks = resident_blocks(in, options);
  const int64_t blocks = static_cast<int64_t>(in.block_weights.size());
  k.active_sms = static_cast<int>(std::min<int64_t>(in.gpu.sms, blocks));
  k.block_slots = std::min<int64_t>(blocks, static_cast<int64_t>(in.gpu.sms) * k.resident_blocks);

  CacheContext cache;
  cache.l1_bytes_per_block =
      static_cast<double>(l1_bytes_per_sm(in.gpu, shared_bytes_per_block(in), k.resident_blocks)) / k.resident_blocks;
  cache.l2_bytes = static_cast<double>(in.gpu.l2_bytes);
  cache.l2_partitions = std::max(1, in.gpu.l2_partitions);
  cache.grid_scale = grid_scale(in);
  cache.resident_blocks = static_cast<double>(k.block_slots);
  cache.grid_blocks = static_cast<double>(blocks);
  cache.measured = in.measured_cache;
  cache.line_weights = in.gpu.line_weights;
  k.programs = prepare_samples(in.samples, cache);
  k.block_weights = in.block_weights;
  k.block_spans = in.block_spans;

  // The SM run: resident - 1 blocks fill the SM, the next S are timed (each sample once, all
  // slots busy around it), the last resident - 1 keep the SM busy until the timed ones end.
  // The fill is what the grid's other blocks are like: the typical samples (no heavier than
  // twice the grid's mean weight), cycled. A power-law matrix's heaviest samples are a few
  // blocks of the grid; as fill they would crowd the SM with 4x the typical traffic, and every
  // block's fitted time would carry that contention.
  const size_t s = k.programs.blocks.size();
  const size_t fill = static_cast<size_t>(k.resident_blocks - 1);
  const double mean_weight =
      std::accumulate(in.block_weights.begin(), in.block_weights.end(), 0.0) / static_cast<double>(blocks);
  std::vector<size_t> typical;
  for (size_t i = 0; i < s; ++i)
    if (in.block_weights[static_cast<size_t>(k.programs.blocks[i].block)] <= 2 * mean_weight) typical.push_back(i);
  if (typical.empty())
    for (size_t i = 0; i < s; ++i) typical.push_back(i);
  const auto fill_block = [&](size_t p) { return &k.programs.blocks[typical[p % typical.size()]]; };
  k.first_measured = fill;
  for (size_t p = 0; p < fill; ++p) k.queue.push_back(fill_block(p));
  for (size_t i = 0; i < s; ++i) k.queue.push_back(&k.programs.blocks[(fill + i) % s]);
  for (size_t p = 0; p < fill; ++p) k.queue.push_back(fill_block(fill + p));

  k.timing.table = in.gpu.timing;
  k.timing.schedulers = in.gpu.schedulers_per_sm;
  k.timing.issue_per_scheduler = in.gpu.issue_per_scheduler;
  const double share = static_cast<double>(k.active_sms) / in.gpu.sms;
  for (Resource r : {Resource::L2Tag, Resource::L2, Resource::Dram, Resource::Atomic}) timing(k.timing.table, r).gap *= share;

  k.launch_cycles = in.gpu.launch_overhead_us * 1e3 * in.gpu.clock_ghz * in.launches;
  k.clock_ghz = in.gpu.clock_ghz;
  k.block_dispatch_cycles = in.gpu.block_dispatch_cycles;
  k.record_ops = options.record_ops;
  return k;
}

KernelPrediction predict_kernel(const PreparedKernel& k, const std::optional<Perturbation>& perturbation) {
  SmRunOptions run_options;
  run_options.resident_blocks = k.resident_blocks;
  run_options.record_ops = k.record_ops;
  run_options.perturbation = perturbation;
  KernelPrediction out;
  out.sm_run = emulate_sm(k.queue, k.timing, run_options);

  const size_t s = k.programs.blocks.size();
  const bool spans = !k.block_spans.empty();
  auto span_of = [&](size_t b) { return spans ? k.block_spans[b] : 0.0; };
  std::vector<double> weights(s), sample_spans(s), times(s);
  std::vector<std::pair<int64_t, double>> sampled_times;  // (block, cycles)
  double sampled_weight = 0;
  for (size_t i = 0; i < s; ++i) {
    const size_t position = k.first_measured + i;
    const EmuBlock& block = k.programs.blocks[position % s];
    const BlockRun& run = out.sm_run.blocks[position];
    SampledBlock sample;
    sample.block = block.block;
    sample.weight = k.block_weights[static_cast<size_t>(block.block)];
    sample.span = span_of(static_cast<size_t>(block.block));
    sample.cycles = run.end - run.start;
    sample.ops = block.op_count();
    sample.transactions = block.transactions;
    weights[i] = sample.weight;
    sample_spans[i] = sample.span;
    times[i] = sample.cycles;
    sampled_weight += sample.weight;
    sampled_times.emplace_back(sample.block, sample.cycles);
    out.samples.push_back(sample);
  }
  const TimeFit fit = spans ? fit_time_by_weight_and_span(weights, sample_spans, times) : fit_time_by_weight(weights, times);
  std::sort(sampled_times.begin(), sampled_times.end());

  std::vector<double> block_cycles(k.block_weights.size());
  auto next_sampled = sampled_times.begin();
  for (size_t b = 0; b < block_cycles.size(); ++b) {
    block_cycles[b] = fit(k.block_weights[b], span_of(b));
    if (next_sampled != sampled_times.end() && next_sampled->first == static_cast<int64_t>(b)) {
      block_cycles[b] = next_sampled->second;  // a sampled block keeps its own time
      while (next_sampled != sampled_times.end() && next_sampled->first == static_cast<int64_t>(b))
        ++next_sampled;
    }
  }
  out.makespan_cycles = grid_makespan(block_cycles, k.block_slots, k.block_dispatch_cycles);
  const int64_t grid = static_cast<int64_t>(block_cycles.size());
  if (grid > k.block_slots && grid <= kTailWaves * static_cast<double>(k.block_slots)) {
    // The block dispatch's delay, from the fitted times, on top of the emulated SM.
    const double dispatch_delay = out.makespan_cycles - grid_makespan(block_cycles, k.block_slots, 0);
    out.makespan_cycles = busiest_sm_cycles(k, block_cycles, run_options) + dispatch_delay;
    out.tail_emulated = true;
  }
  out.launch_cycles = k.launch_cycles;
  out.cycles = out.makespan_cycles + out.launch_cycles;
  out.microseconds = out.cycles / (k.clock_ghz * 1e3);
  out.resident_blocks = k.resident_blocks;
  out.active_sms = k.active_sms;
  out.fit_intercept = fit.intercept;
  out.fit_slope = fit.slope;
  out.fit_span_slope = fit.span_slope;
  out.utilisation = out.sm_run.utilisation;
  out.cache = k.programs.cache;

  const double total_weight = std::accumulate(k.block_weights.begin(), k.block_weights.end(), 0.0);
  const double scale = total_weight > 0 && sampled_weight > 0
                           ? total_weight / sampled_weight
                           : static_cast<double>(k.block_weights.size()) / static_cast<double>(s);
  for (const SampledBlock& sample : out.samples)
    for (size_t r = 0; r < kResourceCount; ++r) out.transactions[r] += sample.transactions[r] * scale;
  return out;
}

KernelPrediction emulate_kernel(const KernelEmulationInput& input, const KernelEmulationOptions& options) {
  return predict_kernel(prepare_kernel(input, options));
}

}  // namespace ktune
