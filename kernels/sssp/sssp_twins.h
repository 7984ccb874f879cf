#pragma once
// Native twins of the SSSP kernels that spread over the graph (kernels/launch_twin.h): the
// relaxation and delta-stepping's sweep. A source's start and a pass's end are single threads.
#include "kernels/launch_plan.h"
#include "kernels/sssp/sssp_config.h"

namespace ktune {

LaunchTwins sssp_twins(const SsspConfig& c, bool float_weights);

}  // namespace ktune
