#pragma once
// The tuner's observer for one job: persists every candidate and measurement as it lands,
// reports progress and the search's state to the job, and feeds back what a previous run of
// the same job already measured (a resumed job measures only what is new).
#include <memory>

#include "search/tune_types.h"
#include "server/job_manager.h"
#include "server/service_parts.h"

namespace ktune {

std::unique_ptr<TuneObserver> make_job_observer(ServiceParts& parts, const JobRecord& job, JobControl& control,
                                                int64_t workload_id, const KernelFamily& family, const Problem& problem,
                                                bool hot, uint64_t seed);

}  // namespace ktune
