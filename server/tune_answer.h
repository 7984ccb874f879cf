#pragma once
// The JSON a client gets for a tuned (or predicted) kernel: everything needed to launch it
// without ktune, how it was found, and why it is fast.
#include <nlohmann/json.hpp>
#include <string>

#include "search/tuner.h"
#include "workload/signature.h"

namespace ktune {

struct AnswerContext {
  const Tuner* tuner = nullptr;
  std::string device_fingerprint;
  std::string nvrtc_version;
  std::string job_id;
};

// Builds the answer for the outcome's best candidate. When a vendor library beat every
// candidate the answer recommends it ("use": "cusparse-csr-alg2") with both times.
nlohmann::json build_tune_answer(const KernelFamily& family, const Workload& workload, const Signature& signature,
                                 const Problem& problem, const TuneOutcome& outcome, const AnswerContext& context);

// The family's default configuration (ParameterSpace::first_valid) as an answer for a lookup
// that found nothing stored: match "default", no timings.
nlohmann::json default_answer(const KernelFamily& family, const Problem& problem, const AnswerContext& context);

std::string service_version();

}  // namespace ktune
