#include "server/metrics.h"

#include <algorithm>
#include <sstream>

namespace ktune {

void Metrics::record_request(const std::string& route, int status, double seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++requests_[{route, status}];
  Latencies& l = latencies_[route];
  if (l.ring.size() < kWindow) {
    l.ring.push_back(seconds);
  } else {
    l.ring[l.next] = seconds;
    l.next = (l.next + 1) % kWindow;
  }
  l.sum += seconds;
  ++l.count;
}

void Metrics::increment(const std::string& counter, double by) {
  std::lock_guard<std::mutex> lock(mutex_);
  counters_[counter] += by;
}

void Metrics::set_gauge(const std::string& gauge, double value) {
  std::lock_guard<std::mutex> lock(mutex_);
  gauges_[gauge] = value;
}

double Metrics::latency_quantile(const std::string& route, double q) const {
  std::vector<double> samples;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = latencies_.find(route);
    if (it == latencies_.end()) return 0;
    samples = it->second.ring;
  }
  if (samples.empty()) return 0;
  const size_t k = std::min(samples.size() - 1, static_cast<size_t>(q * static_cast<double>(samples.size())));
  std::nth_element(samples.begin(), samples.begin() + static_cast<long>(k), samples.end());
  return samples[k];
}

std::string Metrics::prometheus() const {
  std::map<std::string, Latencies> latencies;
  std::ostringstream out;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    latencies = latencies_;
    out << "# HELP ktune_http_requests_total HTTP requests by route and status.\n"
        << "# TYPE ktune_http_requests_total counter\n";
    for (const auto& [key, n] : requests_)
      out << "ktune_http_requests_total{route=\"" << key.first << "\",status=\"" << key.second << "\"} " << n << "\n";
    for (const auto& [name, v] : counters_) out << "# TYPE ktune_" << name << " counter\nktune_" << name << " " << v << "\n";
    for (const auto& [name, v] : gauges_) out << "# TYPE ktune_" << name << " gauge\nktune_" << name << " " << v << "\n";
  }
  out << "# HELP ktune_http_request_duration_seconds Server-side handling time over the recent window.\n"
      << "# TYPE ktune_http_request_duration_seconds summary\n";
  for (const auto& [route, l] : latencies) {
    for (double q : {0.5, 0.9, 0.99})
      out << "ktune_http_request_duration_seconds{route=\"" << route << "\",quantile=\"" << q << "\"} "
          << latency_quantile(route, q) << "\n";
    out << "ktune_http_request_duration_seconds_sum{route=\"" << route << "\"} " << l.sum << "\n"
        << "ktune_http_request_duration_seconds_count{route=\"" << route << "\"} " << l.count << "\n";
  }
  return out.str();
}

}  // namespace ktune
