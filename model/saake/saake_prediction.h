#pragma once
// A CandidatePrediction in the forms the rest of ktune reads: the first cost model's
// Prediction (so that the tuner can rank with the emulator as a drop-in), the bottleneck
// label of tune answers ("dram:throughput") and JSON for the sensitivity report.
#include <string>

#include <nlohmann/json.hpp>

#include "model/first_cost_model.h"
#include "model/saake/candidate_emulation.h"

namespace ktune {

// "<resource>:<latency|throughput>", e.g. "dram:throughput", "l2:latency".
std::string bottleneck_label(const CandidatePrediction& p);

// time_us, launch_us, imbalance, occupancy and bottleneck as emulated; memory_us is the
// DRAM sectors at the spec's bandwidth (a floor, as the first model's), compute_us the steps'
// makespans (the emulated time without launch overheads).
Prediction to_prediction(const CandidatePrediction& p, const GpuSpec& gpu);

// {time_us, cycles, occupancy, imbalance, bottleneck, bottleneck_source, utilisation{},
//  transactions{}, cache{}, steps[{entry, blocks, threads_per_block, time_us, resident_blocks,
//  sampled_blocks, sensitivity?}], host_seconds{}}.
nlohmann::json to_json(const CandidatePrediction& p);

// The bottleneck and the longest step's sensitivity report (model/emulator/sensitivity.h
// to_json), as tune answers carry it; null when the analysis did not run.
nlohmann::json sensitivity_json(const CandidatePrediction& p);

}  // namespace ktune
