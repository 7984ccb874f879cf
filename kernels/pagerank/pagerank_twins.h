#pragma once
// Native twins of the PageRank kernels (kernels/launch_twin.h): every launch but the check,
// which is a single thread.
#include "kernels/launch_plan.h"
#include "kernels/pagerank/pagerank_config.h"

namespace ktune {

// `value`: the ranks' type, f32 or f64.
LaunchTwins pagerank_twins(const PagerankConfig& c, Dtype value);

}  // namespace ktune
