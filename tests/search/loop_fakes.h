#pragma once
// Fakes for the tuning loop: a small space with a known timing surface, a backend that
// "compiles" and "measures" from it, simple techniques and an observer that records.
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include "search/tuning_loop.h"

namespace ktune::testing {

// a ∈ {1, 2, 4, ..., 64}, b ∈ 0..9: 70 configurations.
inline ParameterSpace small_space() {
  ParameterSpace s;
  s.params = {Parameter::power_of_two("a", 1, 64), Parameter::int_range("b", 0, 9)};
  return s;
}

inline Config cfg(int64_t a, int64_t b) { return {{"a", a}, {"b", b}}; }

// Times 10 + |log2 a − 3| + |b − 6|: fastest at a = 8, b = 6, distinct enough elsewhere.
inline double bowl(const Config& c) {
  int64_t a = c.at("a"), log2a = 0;
  while (a > 1) a /= 2, ++log2a;
  return 10 + std::abs(static_cast<double>(log2a - 3)) + std::abs(static_cast<double>(c.at("b") - 6));
}

class FakeBackend : public LoopBackend {
 public:
  std::function<double(const Config&, int call)> time = [](const Config& c, int) { return bowl(c); };
  std::function<int(const Config&)> registers = [](const Config&) { return 32; };
  std::vector<VendorTiming> vendor_timings;
  std::chrono::milliseconds measure_delay{0};
  std::atomic<int> compiles{0};
  std::vector<Config> measured;        // in order
  std::vector<int> compiles_at_measure;  // compiles done when each measurement began
  ParameterSpace space = small_space();

  std::shared_ptr<const CompiledKernel> compile(const Config& c) override {
    auto k = std::make_shared<CompiledKernel>();
    k->ok = true;
    k->key = space.canonical(c);
    k->usage["main"].registers = registers(c);
    ++compiles;
    return k;
  }
  std::optional<Prediction> predict(const Config& c, const CompiledKernel&) override {
    Prediction p;
    p.time_us = bowl(c);
    return p;
  }
  Measurement measure(const Config& c, const CompiledKernel&) override {
    compiles_at_measure.push_back(compiles.load());
    if (measure_delay.count()) std::this_thread::sleep_for(measure_delay);
    int call = 0;
    for (const Config& m : measured) call += m == c;
    measured.push_back(c);
    return Measurement{MeasureStatus::Ok, time(c, call), 0.01, 10, 0, ""};
  }
  // Every configuration its own plan unless a test says otherwise.
  std::function<std::string(const Config&)> plan = [this](const Config& c) { return space.canonical(c); };
  std::string plan_identity(const Config& c, const CompiledKernel&) override { return plan(c); }
  std::function<std::string(const Config&)> violation = [](const Config&) { return std::string(); };
  std::string launch_violation(const Config& c, const CompiledKernel&) override { return violation(c); }
  int vendor_calls = 0;
  std::vector<VendorTiming> vendor() override {
    ++vendor_calls;
    return vendor_timings;
  }
};

// Proposes a fixed list in order.
class ListTechnique : public Technique {
 public:
  explicit ListTechnique(std::vector<Config> list) : list_(std::move(list)) {}
  std::string name() const override { return "list"; }
  std::optional<Config> propose(const ResultsStore& results, Rng&) override {
    while (next_ < list_.size()) {
      const Config& c = list_[next_++];
      if (!results.seen(c)) return c;
    }
    return std::nullopt;
  }

 private:
  std::vector<Config> list_;
  size_t next_ = 0;
};

// Any unseen configuration, drawn with the loop's generator: what makes the seed matter.
class RandomTechnique : public Technique {
 public:
  explicit RandomTechnique(const ParameterSpace& space) : all_(space.enumerate()) {}
  std::string name() const override { return "random"; }
  std::optional<Config> propose(const ResultsStore& results, Rng& rng) override {
    for (int i = 0; i < 1000; ++i) {
      const Config& c = all_[std::uniform_int_distribution<size_t>(0, all_.size() - 1)(rng)];
      if (!results.seen(c)) return c;
    }
    return std::nullopt;
  }

 private:
  std::vector<Config> all_;
};

class RecordingObserver : public TuneObserver {
 public:
  int cancel_after = -1;  // cancels once this many candidates finished
  std::map<std::string, Measurement> previous;
  int planned_total = -1;
  std::vector<CandidateOutcome> finished;
  std::vector<TuneProgress> reports;
  int replay_lookups_hit = 0;

  void planned(int total) override { planned_total = total; }
  void finished_one(const CandidateOutcome& c) override { finished.push_back(c); }
  bool cancelled() override { return cancel_after >= 0 && static_cast<int>(finished.size()) >= cancel_after; }
  std::optional<Measurement> previous_measurement(const std::string& key) override {
    auto it = previous.find(key);
    if (it == previous.end()) return std::nullopt;
    ++replay_lookups_hit;
    return it->second;
  }
  void progress(const TuneProgress& p) override { reports.push_back(p); }
  std::optional<std::vector<VendorTiming>> stored_vendor;  // what a restarted job kept
  std::vector<VendorTiming> committed_vendor;
  std::optional<std::vector<VendorTiming>> previous_vendor() override { return stored_vendor; }
  void vendor_measured(const std::vector<VendorTiming>& v) override { committed_vendor = v; }
  std::map<std::pair<std::string, int>, Measurement> finalist_rounds;  // stored and committed alike
  int finalists_committed = 0;
  double elapsed_before = 0;
  std::optional<Measurement> previous_finalist(const std::string& key, int round) override {
    auto it = finalist_rounds.find({key, round});
    if (it == finalist_rounds.end()) return std::nullopt;
    return it->second;
  }
  void finalist_measured(const std::string& key, int round, const Measurement& m) override {
    finalist_rounds[{key, round}] = m;
    ++finalists_committed;
  }
  double previous_elapsed_seconds() override { return elapsed_before; }
};

}  // namespace ktune::testing
