// Prometheus text and latency quantiles.
#include "server/metrics.h"

#include <gtest/gtest.h>

namespace ktune {
namespace {

TEST(Metrics, CountsRequestsByRouteAndStatus) {
  Metrics m;
  m.record_request("/a", 200, 0.001);
  m.record_request("/a", 200, 0.002);
  m.record_request("/a", 404, 0.001);
  const std::string text = m.prometheus();
  EXPECT_NE(text.find("ktune_http_requests_total{route=\"/a\",status=\"200\"} 2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("ktune_http_requests_total{route=\"/a\",status=\"404\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("ktune_http_request_duration_seconds_count{route=\"/a\"} 3\n"), std::string::npos);
}

TEST(Metrics, QuantilesFollowTheSamples) {
  Metrics m;
  for (int i = 1; i <= 100; ++i) m.record_request("/q", 200, i * 1e-3);
  EXPECT_NEAR(m.latency_quantile("/q", 0.5), 0.050, 0.0015);
  EXPECT_NEAR(m.latency_quantile("/q", 0.99), 0.099, 0.0015);
  EXPECT_EQ(m.latency_quantile("/none", 0.5), 0.0);
}

TEST(Metrics, CountersAndGauges) {
  Metrics m;
  m.increment("jobs_total");
  m.increment("jobs_total", 2);
  m.set_gauge("queued", 4);
  m.set_gauge("queued", 1);
  const std::string text = m.prometheus();
  EXPECT_NE(text.find("ktune_jobs_total 3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("ktune_queued 1\n"), std::string::npos);
}

}  // namespace
}  // namespace ktune
