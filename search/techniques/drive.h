#pragma once
// The propose -> measure -> record -> observe cycle without a GPU: the offline evaluation's
// loop and the way a restarted tune replays its stored history (a measure function that
// answers from the stored results reproduces the same proposals, since every technique is
// deterministic for a seed and an observation sequence).
#include <cstddef>
#include <functional>

#include "search/techniques/search_core.h"

namespace ktune {

using MeasureFn = std::function<double(const Config&)>;  // microseconds; infinity when failed

// Runs until `budget` new results are recorded or the technique has nothing to propose;
// returns how many were recorded.
size_t drive(Technique& technique, ResultsStore& results, Rng& rng, const MeasureFn& measure, size_t budget);

}  // namespace ktune
