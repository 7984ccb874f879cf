#pragma once
// The emulator as the tuner uses it on compiled candidates: a prediction to rank by, and the
// explanation every tune answer carries (predicted time, bottleneck, sensitivity vector).
// A candidate the emulator cannot take (InputError from model/saake) is reported through
// `why`, never thrown: the tuner falls back to the first cost model for it.
#include <functional>
#include <optional>
#include <string>

#include "model/saake/candidate_emulation.h"
#include "search/tune_types.h"

namespace ktune {

using TunerLog = std::function<void(const std::string&)>;

// How a tune emulates: a program over more than 2^23 nonzeros is left to the first model. The
// emulator follows one on R-MAT 20 (16 M edges) through its twins, but a BFS candidate there
// costs 1.4 s on one core and a walk emulates 8 or more: a cold tune would take twice its 9 s,
// where the first model's search already reached the best known within 3 measurements
// (bench/results/graph_search_b2824a3_h200.md); and its memory image and traces would stand
// beside a graph of R-MAT 22's size, whose tune must stay within 3x its CSR.
CandidateEmulationOptions tune_emulation_options();

std::optional<CandidatePrediction> emulate_compiled(const KernelFamily& family, const Workload& workload,
                                                    const Problem& problem, const Config& config, const CompiledKernel& kernel,
                                                    const GpuSpec& gpu, bool sensitivity, std::string* why);

// Emulates `best` with the sensitivity analysis; the first model's view of it when that fails,
// or at once when `not_emulable` says why the tune's emulations were refused.
Explanation explain_candidate(const KernelFamily& family, const Workload& workload, const Problem& problem,
                              const CandidateOutcome& best, const GpuSpec& gpu, const TunerLog& log,
                              const std::optional<std::string>& not_emulable = std::nullopt);

}  // namespace ktune
