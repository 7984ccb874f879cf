#pragma once
// Dense operands a family generates on the host (kernels/host_bytes.h) are held
// there while a tune runs: a request that needs more than the machine can hold would be killed
// by the kernel's OOM killer with the daemon around it, so it is refused before anything is made.
#include <string>

namespace ktune {

// The share of the machine's physical memory one request's host operands may take.
constexpr double kHostOperandShare = 0.5;

// This machine's physical memory in bytes.
double physical_memory_bytes();

// Throws LimitError (an HTTP 413) naming `what` when `bytes` exceed kHostOperandShare of
// physical_memory_bytes(); `advice` ends the message (e.g. "ask for a smaller k").
void check_host_operands(const std::string& what, double bytes, const std::string& advice);

}  // namespace ktune
