#pragma once
// The continuous form of a configuration that geometric techniques (Nelder-Mead, differential
// evolution, pattern search, normal mutation) move in: each parameter's position
// (Parameter::value_at) scaled to [0, 1], as OpenTuner's unit values. Converting back rounds
// to the nearest position, so a power of two moves by exponent and an enum by index.
#include <vector>

#include "kernels/parameter_space.h"

namespace ktune {

using UnitPoint = std::vector<double>;

UnitPoint to_unit(const ParameterSpace& space, const Config& config);
Config from_unit(const ParameterSpace& space, const UnitPoint& point);  // clamped to [0, 1]
// a + scale * (b - c), coordinate-wise, clamped to [0, 1].
UnitPoint affine(const UnitPoint& a, double scale, const UnitPoint& b, const UnitPoint& c);

}  // namespace ktune
