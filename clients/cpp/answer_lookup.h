#pragma once
// The stored answer for the caller's matrix, as GET /v1/configs finds it: the exact answer by
// the signature alone (its hash is all a cached answer needs), then, with the features, the
// nearest neighbour's or the default; with only the default, an asynchronous tune of the
// matrix is submitted (uploaded, `wait: false`) and the default serves meanwhile. A dense
// problem (GEMM, a contraction) is its shape: one lookup finds its exact or nearest answer,
// and its tune uploads nothing.
#include <string>

#include <nlohmann/json.hpp>

#include "clients/ktune_client.h"
#include "kernels/kernel_family.h"

namespace ktune {

struct AnswerQuery {
  const KernelFamily& family;
  const Problem& problem;
  const Workload& workload;
  const std::string& signature;  // exact_signature(workload), or a dense problem's
  bool tune_when_missing = true;
  nlohmann::json tune_budget = nlohmann::json::object();
};

struct FoundAnswer {
  nlohmann::json answer;    // null when the daemon could not answer
  std::string unavailable;  // why not: unreachable, or failing (5xx)
  std::string tune_job;     // the job submitted for this matrix, or empty
  std::string tune_error;   // why a wanted tune could not be submitted, or empty
};

// The daemon's refusals of the request itself (4xx: a bad dtype or problem, a missing token)
// throw ClientError; an unreachable or failing daemon answers `unavailable` instead.
FoundAnswer find_answer(KtuneClient& client, const AnswerQuery& query);

}  // namespace ktune
