#pragma once
// An in-test stand-in for ktuned that plays docs/api.md on a free loopback port, so that
// the client and the CLI are tested over real HTTP without the daemon.
//
// Its jobs advance one step per GET /v1/jobs/{id}: queued, then running (two more
// measurements per poll), then done. Kernel "fails" makes the job fail once running;
// kernel "crashes" makes POST /v1/tune answer 500; any other kernel but "spmv" is 400.
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>

namespace ktune::testing {

class FakeKtuned {
 public:
  FakeKtuned();
  ~FakeKtuned();
  FakeKtuned(const FakeKtuned&) = delete;
  FakeKtuned& operator=(const FakeKtuned&) = delete;

  int port() const { return port_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

  // What the fake received, for the tests to check.
  struct Seen {
    std::vector<std::string> uploads;  // bodies of POST /v1/matrices
    nlohmann::json last_tune_request;
    httplib::Params last_lookup_query;
    int job_polls = 0;
  };
  Seen seen();

  // The answer every finished job and every stored lookup gives.
  static nlohmann::json tune_answer(const std::string& signature, const std::string& match);
  // The signature the fake gives an upload: tests compare against it.
  static std::string signature_of_upload(const std::string& upload_id);
  static std::vector<double> features_of_upload();

 private:
  struct Job {
    std::string id;
    std::string kernel;
    std::string signature;
    std::string state = "queued";
    long done = 0;
    long planned = 0;
    std::string error;
  };

  void install_routes();
  nlohmann::json job_json(const Job& job) const;
  void advance(Job& job);

  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;

  std::mutex mutex_;
  Seen seen_;
  std::map<std::string, std::string> upload_ids_;  // body → id
  std::map<std::string, Job> jobs_;
  std::map<std::string, nlohmann::json> stored_;  // signature → answer
};

// A loopback port on which nothing listens.
int unused_loopback_port();

}  // namespace ktune::testing
