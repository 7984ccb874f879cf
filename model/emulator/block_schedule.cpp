#include "model/emulator/block_schedule.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <queue>

#include "workload/input_error.h"

namespace ktune {

TimeFit fit_time_by_weight(const std::vector<double>& weights, const std::vector<double>& times) {
  if (weights.size() != times.size() || times.empty())
    throw InputError("a time fit needs one weight per time, and at least one");
  const double n = static_cast<double>(times.size());
  const double mean_w = std::accumulate(weights.begin(), weights.end(), 0.0) / n;
  const double mean_t = std::accumulate(times.begin(), times.end(), 0.0) / n;
  double cov = 0, var = 0;
  for (size_t i = 0; i < times.size(); ++i) {
    cov += (weights[i] - mean_w) * (times[i] - mean_t);
    var += (weights[i] - mean_w) * (weights[i] - mean_w);
  }
  TimeFit fit;
  if (var <= 0 || cov <= 0) {  // no usable trend: every block like the mean sample
    fit.intercept = mean_t;
    return fit;
  }
  fit.slope = cov / var;
  fit.intercept = mean_t - fit.slope * mean_w;
  if (fit.intercept < 0) {  // through the origin instead
    double tw = 0, ww = 0;
    for (size_t i = 0; i < times.size(); ++i) {
      tw += times[i] * weights[i];
      ww += weights[i] * weights[i];
    }
    fit.intercept = 0;
    fit.slope = tw / ww;
  }
  return fit;
}

double grid_makespan(const std::vector<double>& block_cycles, int64_t slots, double dispatch_cycles) {
  if (slots < 1) throw InputError("a grid needs at least one block slot");
  if (!(dispatch_cycles >= 0)) throw InputError("the block dispatch gap must be >= 0");
  const int64_t used = std::min<int64_t>(slots, static_cast<int64_t>(block_cycles.size()));
  std::priority_queue<double, std::vector<double>, std::greater<>> free_at;
  for (int64_t s = 0; s < used; ++s) free_at.push(0);
  double makespan = 0, dispatched = -dispatch_cycles;
  for (double cycles : block_cycles) {
    const double start = std::max(free_at.top(), dispatched + dispatch_cycles);
    dispatched = start;
    free_at.pop();
    makespan = std::max(makespan, start + cycles);
    free_at.push(start + cycles);
  }
  return makespan;
}

}  // namespace ktune
