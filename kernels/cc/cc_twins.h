#pragma once
// Native twins of the connected-components kernels (kernels/launch_twin.h): the labels' start,
// the edge pass of either schedule, pointer jumping and union-find's compression.
#include "kernels/cc/cc_config.h"
#include "kernels/launch_plan.h"

namespace ktune {

LaunchTwins cc_twins(const CcConfig& c);

}  // namespace ktune
