#pragma once
// The threads that run at once on the device the graph families' estimates and twins assume:
// one wave of an H100's or H200's 132 SMs of 2048 threads. A grid larger than that runs in
// waves, and only threads of one wave race for the same data.
namespace ktune {

constexpr double kWaveThreads = 132.0 * 2048;

}  // namespace ktune
