#include "model/emulator/block_schedule.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>
#include <utility>

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

namespace {

// Least squares of times on the chosen columns of {1, weight, span}, by the normal equations
// (at most 3x3, Gaussian elimination with partial pivoting) over columns scaled to a largest
// entry of 1, so that weights of 1e4 and spans of 1e1 meet one singularity test. False when a
// column is zero or the chosen columns are (nearly) dependent, as equal spans and the constant.
bool least_squares(const std::vector<std::array<double, 3>>& rows, const std::vector<double>& times,
                   const std::array<bool, 3>& use, std::array<double, 3>& coef) {
  std::vector<int> cols;
  std::vector<double> scale;
  for (int c = 0; c < 3; ++c) {
    if (!use[c]) continue;
    double largest = 0;
    for (const auto& row : rows) largest = std::max(largest, std::fabs(row[c]));
    if (largest == 0) return false;
    cols.push_back(c);
    scale.push_back(largest);
  }
  const size_t n = cols.size();
  double a[3][4] = {};
  for (size_t i = 0; i < times.size(); ++i)
    for (size_t r = 0; r < n; ++r) {
      const double xr = rows[i][cols[r]] / scale[r];
      for (size_t c = 0; c < n; ++c) a[r][c] += xr * rows[i][cols[c]] / scale[c];
      a[r][n] += xr * times[i];
    }
  const double tiny = 1e-9 * static_cast<double>(times.size());
  for (size_t k = 0; k < n; ++k) {
    size_t pivot = k;
    for (size_t r = k + 1; r < n; ++r)
      if (std::fabs(a[r][k]) > std::fabs(a[pivot][k])) pivot = r;
    for (size_t c = 0; c <= n; ++c) std::swap(a[k][c], a[pivot][c]);
    if (std::fabs(a[k][k]) <= tiny) return false;
    for (size_t r = 0; r < n; ++r) {
      if (r == k) continue;
      const double f = a[r][k] / a[k][k];
      for (size_t c = k; c <= n; ++c) a[r][c] -= f * a[k][c];
    }
  }
  coef = {0, 0, 0};
  for (size_t k = 0; k < n; ++k) coef[cols[k]] = a[k][n] / a[k][k] / scale[k];
  return true;
}

// The block slots' free times, least first. Block starts never decrease, so a new free time is
// mostly the latest yet: those go to a sorted FIFO in O(1) and only the few that arrive out of
// order to a heap. A grid of millions of near-equal blocks (a long matrix, one row per thread)
// then does almost no heap work; grid_makespan takes one earliest slot per block.
class SlotFreeTimes {
 public:
  explicit SlotFreeTimes(size_t slots) : in_order_(slots, 0.0) {}
  double earliest() const {
    if (out_of_order_.empty()) return in_order_.front();
    if (in_order_.empty()) return out_of_order_.top();
    return std::min(in_order_.front(), out_of_order_.top());
  }
  // The earliest slot takes a block that frees it at `free_at` (>= earliest()).
  void reuse_earliest(double free_at) {
    if (!out_of_order_.empty() && (in_order_.empty() || out_of_order_.top() < in_order_.front()))
      out_of_order_.pop();
    else
      in_order_.pop_front();
    if (in_order_.empty() || free_at >= in_order_.back())
      in_order_.push_back(free_at);
    else
      out_of_order_.push(free_at);
  }

 private:
  std::deque<double> in_order_;
  std::priority_queue<double, std::vector<double>, std::greater<>> out_of_order_;
};

}  // namespace

TimeFit fit_time_by_weight_and_span(const std::vector<double>& weights, const std::vector<double>& spans,
                                    const std::vector<double>& times) {
  if (weights.size() != times.size() || spans.size() != times.size() || times.empty())
    throw InputError("a time fit needs one weight and one span per time, and at least one");
  std::vector<std::array<double, 3>> rows(times.size());
  for (size_t i = 0; i < times.size(); ++i) rows[i] = {1.0, weights[i], spans[i]};
  TimeFit best;
  best.intercept = std::accumulate(times.begin(), times.end(), 0.0) / static_cast<double>(times.size());
  double best_error = std::numeric_limits<double>::infinity();
  for (int subset = 1; subset < 8; ++subset) {
    const std::array<bool, 3> use = {(subset & 1) != 0, (subset & 2) != 0, (subset & 4) != 0};
    std::array<double, 3> coef{};
    if (!least_squares(rows, times, use, coef)) continue;
    if (coef[0] < 0 || coef[1] < 0 || coef[2] < 0) continue;
    double error = 0;
    for (size_t i = 0; i < times.size(); ++i) {
      const double residual = times[i] - (coef[0] + coef[1] * weights[i] + coef[2] * spans[i]);
      error += residual * residual;
    }
    if (error < best_error) {
      best_error = error;
      best.intercept = coef[0];
      best.slope = coef[1];
      best.span_slope = coef[2];
    }
  }
  return best;
}

double grid_makespan(const std::vector<double>& block_cycles, int64_t slots, double dispatch_cycles) {
  if (slots < 1) throw InputError("a grid needs at least one block slot");
  if (!(dispatch_cycles >= 0)) throw InputError("the block dispatch gap must be >= 0");
  const int64_t used = std::min<int64_t>(slots, static_cast<int64_t>(block_cycles.size()));
  SlotFreeTimes slots_free(static_cast<size_t>(used));
  double makespan = 0, dispatched = -dispatch_cycles;
  for (double cycles : block_cycles) {
    const double start = std::max(slots_free.earliest(), dispatched + dispatch_cycles);
    dispatched = start;
    makespan = std::max(makespan, start + cycles);
    slots_free.reuse_earliest(start + cycles);
  }
  return makespan;
}

std::vector<int64_t> busiest_sm_blocks(const std::vector<double>& block_cycles, int64_t slots, int sms) {
  if (slots < 1 || sms < 1) throw InputError("a grid needs at least one block slot and one SM");
  const int64_t blocks = static_cast<int64_t>(block_cycles.size());
  using Slot = std::pair<double, int64_t>;  // (free at, slot)
  std::priority_queue<Slot, std::vector<Slot>, std::greater<>> free_slots;
  for (int64_t j = 0; j < std::min(slots, blocks); ++j) free_slots.push({0.0, j});
  std::vector<std::vector<int64_t>> per_sm(static_cast<size_t>(sms));
  std::vector<double> sm_end(static_cast<size_t>(sms), 0.0);
  for (int64_t b = 0; b < blocks; ++b) {
    const Slot slot = free_slots.top();
    free_slots.pop();
    const size_t sm = static_cast<size_t>(slot.second % sms);
    const double end = slot.first + block_cycles[static_cast<size_t>(b)];
    per_sm[sm].push_back(b);
    sm_end[sm] = std::max(sm_end[sm], end);
    free_slots.push({end, slot.second});
  }
  const auto busiest = std::max_element(sm_end.begin(), sm_end.end());
  return per_sm[static_cast<size_t>(busiest - sm_end.begin())];
}

}  // namespace ktune
