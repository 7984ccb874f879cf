#pragma once
// Native twins of the BFS kernels that spread over the graph (kernels/launch_twin.h): the
// expansions and the conversions between queue and bitmap. The single-thread launches (a
// source's start, a level's end) are cheap to interpret and have none.
#include "kernels/bfs/bfs_config.h"
#include "kernels/launch_plan.h"

namespace ktune {

LaunchTwins bfs_twins(const BfsConfig& c, bool parents);

}  // namespace ktune
