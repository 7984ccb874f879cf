#pragma once
// Request counters and latency quantiles, rendered in the Prometheus text format.
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace ktune {

class Metrics {
 public:
  void record_request(const std::string& route, int status, double seconds);
  void increment(const std::string& counter, double by = 1);
  void set_gauge(const std::string& gauge, double value);
  // Quantile q of the recent latencies of `route` (seconds); 0 when none.
  double latency_quantile(const std::string& route, double q) const;
  std::string prometheus() const;

 private:
  struct Latencies {
    std::vector<double> ring;  // the most recent samples, for quantiles
    size_t next = 0;
    double sum = 0;
    long count = 0;
  };
  static constexpr size_t kWindow = 16384;
  mutable std::mutex mutex_;
  std::map<std::pair<std::string, int>, long> requests_;
  std::map<std::string, Latencies> latencies_;
  std::map<std::string, double> counters_;
  std::map<std::string, double> gauges_;
};

}  // namespace ktune
