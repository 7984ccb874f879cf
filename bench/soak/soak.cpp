// ktune_soak: a bounded soak test of a real ktuned on loopback (issue 22, part 10). Client
// threads mix uploads, tunes, cancels, polls, lookups and the read-only routes for --minutes
// while the daemon is restarted now and then (SIGTERM and SIGKILL in turn); then the daemon
// finishes what it resumed, and the database, the answers and the memory are checked.
// Exit status 1 on any 5xx, crash, slow or unclean SIGTERM exit, unfinished job, damaged
// database or stored answer, or memory that did not come back near its baseline.
#include <signal.h>

#include <chrono>
#include <cmath>
#include <iostream>
#include <random>
#include <sstream>
#include <thread>

#include "bench/soak/command_line.h"
#include "bench/soak/daemon_events.h"
#include "bench/soak/database_audit.h"
#include "bench/soak/matrix_text.h"
#include "bench/soak/report_files.h"
#include "bench/soak/rss_sampler.h"
#include "bench/soak/soak_client.h"

namespace ktune::soak {
namespace {

using Clock = std::chrono::steady_clock;

const char* kUsage =
    "usage: ktune_soak --ktuned PATH [--minutes 5] [--clients 6] [--seed 1] [--out DIR]\n"
    "  [--restart-seconds 30] (mean time between restarts, each drawn in 2/3..4/3 of it)\n"
    "  [--max-open-jobs 8] [--think-ms 50] [--timeout-seconds 30] [--idle-seconds 5] [--settle-seconds 5]\n"
    "  [--drain-seconds 180] [--rss-margin-mb 256] [--term-limit-seconds 5] [--keep 0|1]";

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

void sleep_seconds(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

struct Memory {
  int64_t baseline = 0, peak = 0, at_end = 0, margin = 0;
  double end_uptime_s = 0;  // how long the process measured last had been serving
  bool ok() const { return baseline > 0 && at_end > 0 && at_end - baseline <= margin; }
};

class Soak {
 public:
  explicit Soak(const CommandLine& flags)
      : flags_(flags),
        dir_(fresh_temp_dir("ktune-soak")),
        daemon_(flags.text("ktuned"), dir_),
        plan_(static_cast<uint64_t>(flags.integer("seed"))) {
    for (int i = 0; i < 48; ++i)
      matrices_.push_back(random_matrix_market(static_cast<uint64_t>(flags.integer("seed")) * 1000 + i));
    memory_.margin = flags.integer("rss-margin-mb") << 20;
  }

  ~Soak() {
    if (flags_.integer("keep") == 0) std::filesystem::remove_all(dir_);
  }

  int run() {
    try {
      daemon_.start();
      sleep_seconds(flags_.number("idle-seconds"));
      memory_.baseline = vm_rss_bytes(daemon_.pid()).value_or(0);
      load();
      drain();
      audit_ = audit_database(daemon_.database());
      audited_ = true;
    } catch (const std::exception& e) {
      failures_.push_back(std::string("the soak could not go on: ") + e.what());
    }
    return report();
  }

 private:
  double now() const { return seconds_since(begin_); }

  // A crash is recorded and the daemon started again, so that the soak goes on.
  void restart_if_crashed(const std::string& during) {
    if (const auto crash = daemon_.crashed()) {
      events_.crashed(now(), *crash, during, daemon_.stderr_tail(4000));
      daemon_.start();
      started_at_ = Clock::now();
    }
  }

  // A restart tells most with jobs queued or running (they must resume): waits up to 5 s for one.
  void await_work_in_flight() {
    const auto begin = Clock::now();
    while (seconds_since(begin) < 5 && count_unfinished_jobs(daemon_.database()) == 0) sleep_seconds(0.05);
  }

  // Says how many jobs the stop left for the next start to resume.
  void stop_daemon(int signal, const std::string& why) {
    const DaemonExit exit = daemon_.stop(signal, 30);
    events_.stopped(now(), why + "; jobs left unfinished: " + std::to_string(count_unfinished_jobs(daemon_.database())),
                    exit);
  }

  double next_restart_gap() {
    const double mean = flags_.number("restart-seconds");
    return std::uniform_real_distribution<double>(mean * 2 / 3, mean * 4 / 3)(plan_);
  }

  // Restarts stop in the last quarter, so that the memory measured at the end is that of a
  // daemon that served load; a run too short for one gets one at its middle.
  void load() {
    const double run_s = flags_.number("minutes") * 60;
    double next = next_restart_gap();
    if (next > run_s * 0.75) next = run_s / 2;
    std::atomic<bool> stop{false};
    SoakClientSettings settings{&matrices_, static_cast<size_t>(flags_.integer("max-open-jobs")),
                                flags_.number("timeout-seconds"), static_cast<int>(flags_.integer("think-ms"))};
    RssSampler sampler([this] { return daemon_.pid(); }, std::chrono::milliseconds(100));
    std::vector<std::thread> clients;
    for (int64_t i = 0; i < flags_.integer("clients"); ++i)
      clients.emplace_back([this, i, &stop, &settings] {
        SoakClient(static_cast<uint64_t>(flags_.integer("seed")) * 7919 + static_cast<uint64_t>(i), daemon_, tally_,
                   book_, settings)
            .run(stop);
      });
    const auto load_begin = Clock::now();
    started_at_ = load_begin;
    int restarts = 0;
    try {
      while (seconds_since(load_begin) < run_s) {
        restart_if_crashed("the load");
        if (seconds_since(load_begin) >= next) {
          // SIGKILL first: a run with a single restart still sees both, the end being a SIGTERM.
          const int signal = restarts++ % 2 == 0 ? SIGKILL : SIGTERM;
          await_work_in_flight();
          stop_daemon(signal, "restart during the load");
          daemon_.start();
          started_at_ = Clock::now();
          next += next_restart_gap();
          if (next > run_s * 0.75) next = INFINITY;
        }
        sleep_seconds(0.1);
      }
    } catch (...) {
      stop = true;
      for (std::thread& t : clients) t.join();
      throw;
    }
    stop = true;
    for (std::thread& t : clients) t.join();
    memory_.peak = sampler.peak_bytes();
    sleep_seconds(flags_.number("settle-seconds"));
    restart_if_crashed("the settle");
    memory_.at_end = vm_rss_bytes(daemon_.pid()).value_or(0);
    memory_.end_uptime_s = seconds_since(started_at_);
  }

  // A last restart resumes what the stop left unfinished, and runs it to the end.
  void drain() {
    stop_daemon(SIGTERM, "end of the load");
    daemon_.start();
    const auto begin = Clock::now();
    while (seconds_since(begin) < flags_.number("drain-seconds") && count_unfinished_jobs(daemon_.database()) > 0) {
      restart_if_crashed("the drain");
      sleep_seconds(0.5);
    }
    drain_seconds_ = seconds_since(begin);
    restart_if_crashed("the drain");
    stop_daemon(SIGTERM, "after the drain");
  }

  int report();

  const CommandLine& flags_;
  std::filesystem::path dir_;
  DaemonProcess daemon_;
  std::mt19937_64 plan_;
  std::vector<std::string> matrices_;
  Clock::time_point begin_ = Clock::now(), started_at_ = Clock::now();
  RequestTally tally_;
  SoakBook book_;
  DaemonEvents events_;
  Memory memory_;
  DatabaseAudit audit_;
  bool audited_ = false;
  double drain_seconds_ = 0;
  std::vector<std::string> failures_;
};

int Soak::report() {
  const double term_limit = flags_.number("term-limit-seconds");
  if (tally_.server_errors() > 0)
    failures_.push_back(std::to_string(tally_.server_errors()) + " answers with a 5xx status");
  if (tally_.problems() > 0)
    failures_.push_back(std::to_string(tally_.problems()) +
                        " answers breaking the API's rules (not JSON, no \"error\")");
  for (const std::string& f : events_.failures(term_limit)) failures_.push_back(f);
  if (audited_) {
    if (!audit_.unfinished_jobs.empty())
      failures_.push_back(std::to_string(audit_.unfinished_jobs.size()) + " jobs not in a final state after a " +
                          std::to_string(static_cast<int>(drain_seconds_)) + " s drain");
    if (audit_.integrity != "ok") failures_.push_back("PRAGMA integrity_check: " + audit_.integrity);
    for (const std::string& r : audit_.bad_results) failures_.push_back(r);
  }
  if (!memory_.ok())
    failures_.push_back("final RSS " + mebibytes(memory_.at_end) + " is not within " + mebibytes(memory_.margin) +
                        " of the baseline " + mebibytes(memory_.baseline));

  nlohmann::json j = {{"settings",
                       {{"minutes", flags_.number("minutes")},
                        {"clients", flags_.integer("clients")},
                        {"seed", flags_.integer("seed")},
                        {"restart_seconds", flags_.number("restart-seconds")},
                        {"max_open_jobs", flags_.integer("max-open-jobs")}}},
                      {"requests", tally_.to_json()},
                      {"daemon", events_.to_json()},
                      {"memory",
                       {{"baseline_bytes", memory_.baseline},
                        {"peak_bytes", memory_.peak},
                        {"final_bytes", memory_.at_end},
                        {"final_minus_baseline_bytes", memory_.at_end - memory_.baseline},
                        {"margin_bytes", memory_.margin},
                        {"final_process_uptime_s", memory_.end_uptime_s},
                        {"ok", memory_.ok()}}},
                      {"database", audited_ ? audit_.to_json() : nlohmann::json()},
                      {"drain_seconds", drain_seconds_},
                      {"failures", failures_},
                      {"passed", failures_.empty()}};

  std::ostringstream md;
  md << "# ktune soak: " << flags_.number("minutes") << " min, " << flags_.integer("clients") << " clients, seed "
     << flags_.integer("seed") << "\n\n**" << (failures_.empty() ? "PASSED" : "FAILED") << "**\n\n";
  md << "| figure | value |\n|---|---|\n"
     << "| requests | " << tally_.requests() << " |\n"
     << "| 5xx answers | " << tally_.server_errors() << " |\n"
     << "| connection failures (not a timeout, not a restart) | " << tally_.connection_failures() << " |\n"
     << "| client timeouts | " << tally_.timeouts() << " |\n"
     << "| crashes | " << events_.crashes() << " |\n"
     << "| slowest SIGTERM exit | " << j["daemon"]["slowest_sigterm_exit_s"].get<double>() << " s |\n"
     << "| RSS baseline / peak / final | " << mebibytes(memory_.baseline) << " / " << mebibytes(memory_.peak) << " / "
     << mebibytes(memory_.at_end) << " (final process up " << static_cast<int>(memory_.end_uptime_s) << " s) |\n"
     << "| final - baseline | " << mebibytes(memory_.at_end - memory_.baseline) << " (allowed "
     << mebibytes(memory_.margin) << ") |\n";
  if (audited_) {
    md << "| jobs by final state |";
    for (const auto& [state, n] : audit_.jobs_by_state) md << " " << state << ": " << n;
    md << " |\n| integrity check | " << audit_.integrity << " |\n| stored answers checked | " << audit_.results
       << " (bad: " << audit_.bad_results.size() << ") |\n";
  }
  md << "\n## Failures: " << failures_.size() << "\n\n";
  for (const std::string& f : failures_) md << "- " << f << "\n";
  const std::string summary = md.str();
  md << "\n## Requests\n\n" << tally_.markdown() << "\n## Daemon stops and crashes\n\n" << events_.markdown();

  write_report(flags_.text("out"), "soak", j, md.str());
  std::cout << summary << "\nReports: " << flags_.text("out") << "/soak.json, soak.md\n";
  return failures_.empty() ? 0 : 1;
}

}  // namespace
}  // namespace ktune::soak

int main(int argc, char** argv) {
  using namespace ktune::soak;
  try {
    const CommandLine flags(argc, argv,
                            {{"ktuned", ""},
                             {"minutes", "5"},
                             {"clients", "6"},
                             {"seed", "1"},
                             {"out", "soak-results"},
                             {"restart-seconds", "30"},
                             {"max-open-jobs", "8"},
                             {"think-ms", "50"},
                             {"timeout-seconds", "30"},
                             {"idle-seconds", "5"},
                             {"settle-seconds", "5"},
                             {"drain-seconds", "180"},
                             {"rss-margin-mb", "256"},
                             {"term-limit-seconds", "5"},
                             {"keep", "0"}},
                            kUsage);
    if (flags.text("ktuned").empty()) throw std::invalid_argument(kUsage);
    signal(SIGPIPE, SIG_IGN);
    return Soak(flags).run();
  } catch (const std::invalid_argument& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
}
