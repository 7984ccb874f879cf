#pragma once
// One client thread of the soak: draws an action by weight (uploads valid and malformed, plain
// and gzip; tunes with and without waiting; job polls and cancels; lookups; the read-only
// routes; matrix deletes), sends it, records the answer, and goes on until told to stop.
#include <atomic>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bench/soak/daemon_process.h"
#include "bench/soak/recorded_client.h"
#include "bench/soak/request_tally.h"
#include "bench/soak/soak_book.h"

namespace ktune::soak {

struct SoakClientSettings {
  const std::vector<std::string>* matrices = nullptr;  // the pool of valid texts to upload
  size_t max_open_jobs = 8;                            // tunes wait while this many are unfinished
  double timeout_seconds = 30;
  int think_ms = 50;  // mean pause between two requests
};

class SoakClient {
 public:
  SoakClient(uint64_t seed, const DaemonProcess& daemon, RequestTally& tally, SoakBook& book,
             const SoakClientSettings& settings);
  void run(const std::atomic<bool>& stop);

 private:
  void upload(int kind);
  void tune();
  void poll();
  void cancel();
  void cancel_job(const std::string& id);
  void lookup();
  void delete_matrix();
  void plain_get(const std::string& route, const std::string& path, bool json);

  // Records a JSON route's answer that breaks docs/api.md's rules.
  void check(const std::string& route, const std::string& request, const Reply& reply);
  void note_job_state(const std::string& id, const Reply& reply);

  std::mt19937_64 rng_;
  RecordedClient client_;
  RequestTally& tally_;
  SoakBook& book_;
  SoakClientSettings settings_;
};

}  // namespace ktune::soak
