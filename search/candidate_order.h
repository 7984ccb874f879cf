#pragma once
// How measured candidates compare: the one rule the search, the finalists and the answer share.
#include "search/tune_types.h"

namespace ktune {

// ptxas usage over a plan's entries: registers and shared memory of the largest entry.
ResourceUsage combined_usage(const CompiledKernel& kernel);

// The noise two measured medians must differ by to count as different: the sum of their
// notches (median_notch), at least half a percent of the faster.
double measurement_noise(const Measurement& a, const Measurement& b);

// Orders measured candidates: faster median first; ties inside the noise go to fewer
// registers, then to the configuration key, so that repeated tunes give the same answer.
bool better_measured(const CandidateOutcome& a, const CandidateOutcome& b);

}  // namespace ktune
