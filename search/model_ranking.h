#pragma once
// How the models' predictions order the configurations a measured search proposes first.
//
// The first cost model often prices many configurations alike (a memory-bound estimate that a
// parameter does not move): PageRank's pull at lanes 2 to 32, SSSP's delta above 8. Left in
// enumeration order such a tie puts neighbours that differ in one parameter next to each other,
// and a search that takes the model's top few measures one line of the space. Spread, the same
// few cover the tie.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "search/tune_types.h"

namespace ktune {

// Predictions within this fraction of a run's fastest are a tie.
constexpr double kModelTieFraction = 0.005;

// `ranked` sorted by predicted time: reorders every run of tied predictions by a hash of each
// configuration's key and `seed`, keeping the order between runs. Deterministic for a seed.
void spread_model_ties(std::vector<CandidateOutcome>& ranked, uint64_t seed);

// An emulated configuration predicted slower than this many times the best emulated one goes
// behind the first model's picks: the emulator says it loses.
constexpr double kEmulatedSlowFactor = 2;

// The first model's ranking with the emulator's word first: the configurations it emulated
// (`emulated_us` answers their time, nullopt for the others) within kEmulatedSlowFactor of its
// best, fastest first; then the rest in the first model's order; then the slow emulated ones.
std::vector<Config> emulator_first(const std::vector<CandidateOutcome>& ranked,
                                   const std::function<std::optional<double>(const Config&)>& emulated_us);

}  // namespace ktune
