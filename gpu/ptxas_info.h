#pragma once
// Reads the resource usage that ptxas prints with -v (NVRTC option -Xptxas=-v) per kernel.
#include <map>
#include <string>

#include "gpu/compiled_kernel.h"

namespace ktune {

// Entry function (as ptxas names it: the lowered, possibly mangled name) -> its usage.
// Non-entry functions and lines it does not know are skipped, so newer ptxas wording
// degrades to missing fields rather than errors.
std::map<std::string, ResourceUsage> parse_ptxas_info(const std::string& log);

}  // namespace ktune
