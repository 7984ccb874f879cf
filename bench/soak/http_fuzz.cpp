// ktune_http_fuzz: fuzzed requests against a real ktuned on loopback (issue 22's targets):
// --uploads mutated Matrix Market uploads, --tunes malformed tune bodies and --queries malformed
// GET /v1/configs query strings, every one derived from --seed and its index, so that any
// finding can be replayed. Every answer must be JSON (with "error" for a 4xx); exit status 1
// on any 5xx, connection failure that is not the client's own timeout, crash, a daemon not
// alive at the end, a slow or unclean SIGTERM exit, or a peak RSS above --rss-limit-mb.
#include <signal.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <thread>

#include "bench/soak/command_line.h"
#include "bench/soak/config_query_mutations.h"
#include "bench/soak/daemon_events.h"
#include "bench/soak/json_reply_check.h"
#include "bench/soak/matrix_text.h"
#include "bench/soak/printable_text.h"
#include "bench/soak/recorded_client.h"
#include "bench/soak/report_files.h"
#include "bench/soak/rss_sampler.h"
#include "bench/soak/tune_body_mutations.h"

namespace ktune::soak {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

const char* kUsage =
    "usage: ktune_http_fuzz --ktuned PATH [--uploads 10000] [--tunes 1000] [--queries 500] [--seed 1]\n"
    "  [--out DIR] [--timeout-seconds 60] [--rss-limit-mb 1024] [--term-limit-seconds 5] [--keep 0|1]";

// Requests whose bodies are saved for replay (5xx, crash, broken answer); the counts go on.
constexpr size_t kSavedBodies = 100;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

class HttpFuzz {
 public:
  explicit HttpFuzz(const CommandLine& flags)
      : flags_(flags),
        out_(flags.text("out")),
        dir_(fresh_temp_dir("ktune-http-fuzz")),
        daemon_(flags.text("ktuned"), dir_),
        client_(daemon_, tally_, flags.number("timeout-seconds")),
        raw_client_(daemon_, tally_, flags.number("timeout-seconds")),
        seed_(static_cast<uint64_t>(flags.integer("seed"))) {
    raw_client_.send_paths_raw();
    for (uint64_t i = 0; i < 4; ++i) seeds_.push_back(random_matrix_market(seed_ * 1000 + i));
  }

  ~HttpFuzz() {
    if (flags_.integer("keep") == 0) std::filesystem::remove_all(dir_);
  }

  int run() {
    try {
      std::ofstream(daemon_.data_dir() / "small.mtx") << seeds_[0];  // for tune bodies that name a path
      daemon_.start();
      std::this_thread::sleep_for(std::chrono::seconds(2));
      baseline_ = vm_rss_bytes(daemon_.pid()).value_or(0);
      RssSampler sampler([this] { return daemon_.pid(); }, std::chrono::milliseconds(50));
      sampler_ = &sampler;
      fuzz();
      peak_ = sampler.peak_bytes();
      if (sampler.peak_marker() >= 0) peak_during_ = descriptions_[static_cast<size_t>(sampler.peak_marker())];
      sampler_ = nullptr;
      finish();
    } catch (const std::exception& e) {
      failures_.push_back(std::string("the fuzz could not go on: ") + e.what());
    }
    return report();
  }

 private:
  // Draws of request `index` depend on the seed and the index only: one can be replayed alone.
  std::mt19937_64 rng_for(uint64_t index) const {
    std::seed_seq seq{seed_, index};
    return std::mt19937_64(seq);
  }

  void fuzz() {
    const Reply setup =
        client_.post("POST /v1/matrices", "/v1/matrices", seeds_[1], "application/octet-stream", "setup");
    const json matrix = json::parse(setup.body, nullptr, false);
    if (!matrix.is_object() || !matrix.contains("id"))
      throw std::runtime_error("the setup upload failed: " + setup.body);
    const std::string upload_id = matrix["id"], signature = matrix["signature"];

    const auto uploads = static_cast<uint64_t>(flags_.integer("uploads")),
               tunes = static_cast<uint64_t>(flags_.integer("tunes")),
               queries = static_cast<uint64_t>(flags_.integer("queries"));
    for (uint64_t i = 0; i < uploads + tunes + queries; ++i) {
      std::mt19937_64 rng = rng_for(i);
      if (i < uploads) {
        const FuzzedBody body = fuzz_upload(seeds_, rng);
        send(i, "POST /v1/matrices", body, [&](const std::string& request) {
          return client_.post("POST /v1/matrices", "/v1/matrices", body.bytes, "application/octet-stream", request);
        });
      } else if (i < uploads + tunes) {
        const FuzzedBody body = fuzz_tune_body(upload_id, rng);
        const Reply reply = send(i, "POST /v1/tune", body, [&](const std::string& request) {
          return client_.post("POST /v1/tune", "/v1/tune", body.bytes, "application/json", request);
        });
        cancel_started_job(reply);
      } else {
        const FuzzedBody query = fuzz_config_query(signature, rng);
        send(i, "GET /v1/configs", query,
             [&](const std::string& request) { return raw_client_.get("GET /v1/configs", query.bytes, request); });
      }
      if ((i + 1) % 1000 == 0) std::cerr << "ktune_http_fuzz: " << i + 1 << " requests\n";
    }
  }

  // A mutation that stayed valid started a job: cancelled at once, the fuzz is about requests.
  void cancel_started_job(const Reply& reply) {
    if (reply.status != 202) return;
    const json answer = json::parse(reply.body, nullptr, false);
    if (!answer.is_object() || !answer.contains("job") || !answer["job"].is_string()) return;
    const Reply cancel = client_.del("DELETE /v1/jobs/{id}", "/v1/jobs/" + answer["job"].get<std::string>());
    check_json_reply(tally_, "DELETE /v1/jobs/{id}", answer["job"].get<std::string>(), cancel);
  }

  template <typename Call>
  Reply send(uint64_t index, const std::string& route, const FuzzedBody& body, Call call) {
    const std::string request = "#" + std::to_string(index) + ": " + body.description;
    descriptions_.push_back(route + " " + request);
    sampler_->mark(static_cast<int64_t>(index));
    const int64_t problems = tally_.problems();
    const Reply reply = call(request);
    check_json_reply(tally_, route, request, reply);
    // A crash shows as a failed connection; the exit may take a moment to be reaped.
    if (!reply.answered && !reply.timed_out) std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const auto crash = daemon_.crashed();
    if (crash) {
      events_.crashed(seconds_since(begin_), *crash, descriptions_.back(), daemon_.stderr_tail(4000));
      daemon_.start();
    }
    if (crash || (reply.answered && reply.status >= 500) || tally_.problems() > problems) save(index, route, body);
    return reply;
  }

  void save(uint64_t index, const std::string& route, const FuzzedBody& body) {
    if (saved_.size() >= kSavedBodies) return;
    const std::filesystem::path file = out_ / "requests" / (std::to_string(index) + ".bin");
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << body.bytes;
    saved_.push_back({{"index", index},
                      {"route", route},
                      {"description", printable(body.description)},
                      {"file", file.string()},
                      {"bytes", body.bytes.size()}});
  }

  void finish() {
    const Reply health = client_.get("GET /healthz", "/healthz");
    alive_ = health.answered && health.status == 200 && !daemon_.crashed();
    end_rss_ = vm_rss_bytes(daemon_.pid()).value_or(0);
    events_.stopped(seconds_since(begin_), "end of the fuzz", daemon_.stop(SIGTERM, 30));
  }

  int report();

  const CommandLine& flags_;
  std::filesystem::path out_, dir_;
  DaemonProcess daemon_;
  RequestTally tally_;
  RecordedClient client_, raw_client_;
  uint64_t seed_;
  std::vector<std::string> seeds_, descriptions_;
  RssSampler* sampler_ = nullptr;
  DaemonEvents events_;
  Clock::time_point begin_ = Clock::now();
  int64_t baseline_ = 0, peak_ = 0, end_rss_ = 0;
  std::string peak_during_;
  bool alive_ = false;
  json saved_ = json::array();
  std::vector<std::string> failures_;
};

int HttpFuzz::report() {
  const int64_t limit = flags_.integer("rss-limit-mb") << 20;
  if (tally_.server_errors() > 0)
    failures_.push_back(std::to_string(tally_.server_errors()) + " answers with a 5xx status");
  if (tally_.problems() > 0)
    failures_.push_back(std::to_string(tally_.problems()) +
                        " answers breaking the API's rules (not JSON, no \"error\")");
  if (tally_.connection_failures() > 0)
    failures_.push_back(std::to_string(tally_.connection_failures()) +
                        " connection failures that were not the client's timeout");
  for (const std::string& f : events_.failures(flags_.number("term-limit-seconds"))) failures_.push_back(f);
  if (!alive_) failures_.push_back("the daemon was not alive and answering /healthz at the end");
  if (baseline_ <= 0) failures_.push_back("the daemon's baseline RSS could not be read");
  if (peak_ - baseline_ > limit)
    failures_.push_back("peak RSS " + mebibytes(peak_) + " is more than " + mebibytes(limit) + " above the baseline " +
                        mebibytes(baseline_) + " (first seen during " + printable(peak_during_, 200) + ")");

  const json j = {{"settings",
                   {{"uploads", flags_.integer("uploads")},
                    {"tunes", flags_.integer("tunes")},
                    {"queries", flags_.integer("queries")},
                    {"seed", seed_},
                    {"timeout_seconds", flags_.number("timeout-seconds")}}},
                  {"requests", tally_.to_json()},
                  {"daemon", events_.to_json()},
                  {"alive_at_end", alive_},
                  {"memory",
                   {{"baseline_bytes", baseline_},
                    {"peak_bytes", peak_},
                    {"peak_above_baseline_bytes", peak_ - baseline_},
                    {"peak_first_seen_during", printable(peak_during_)},
                    {"end_bytes", end_rss_},
                    {"limit_above_baseline_bytes", limit}}},
                  {"saved_requests", saved_},
                  {"failures", failures_},
                  {"passed", failures_.empty()}};

  std::ostringstream md;
  md << "# ktune HTTP fuzz: " << flags_.integer("uploads") << " uploads, " << flags_.integer("tunes")
     << " tune bodies, " << flags_.integer("queries") << " queries, seed " << seed_ << "\n\n**"
     << (failures_.empty() ? "PASSED" : "FAILED") << "**\n\n| figure | value |\n|---|---|\n"
     << "| requests | " << tally_.requests() << " |\n"
     << "| 5xx answers | " << tally_.server_errors() << " |\n"
     << "| answers breaking the API's rules | " << tally_.problems() << " |\n"
     << "| connection failures (not a timeout) | " << tally_.connection_failures() << " |\n"
     << "| client timeouts | " << tally_.timeouts() << " |\n"
     << "| crashes | " << events_.crashes() << " |\n"
     << "| alive at the end | " << (alive_ ? "yes" : "no") << " |\n"
     << "| RSS baseline / peak / end | " << mebibytes(baseline_) << " / " << mebibytes(peak_) << " / "
     << mebibytes(end_rss_) << " |\n| peak above baseline | " << mebibytes(peak_ - baseline_) << " (limit "
     << mebibytes(limit) << "), first seen during `" << printable(peak_during_, 160) << "` |\n";
  md << "\n## Failures: " << failures_.size() << "\n\n";
  for (const std::string& f : failures_) md << "- " << f << "\n";
  const std::string summary = md.str();
  md << "\n## Requests\n\n" << tally_.markdown() << "\n## Daemon stops and crashes\n\n" << events_.markdown();
  if (!saved_.empty())
    md << "\nBodies of the requests listed above: " << (out_ / "requests").string() << "/INDEX.bin\n";

  write_report(out_, "http_fuzz", j, md.str());
  std::cout << summary << "\nReports: " << out_.string() << "/http_fuzz.json, http_fuzz.md\n";
  return failures_.empty() ? 0 : 1;
}

}  // namespace
}  // namespace ktune::soak

int main(int argc, char** argv) {
  using namespace ktune::soak;
  try {
    const CommandLine flags(argc, argv,
                            {{"ktuned", ""},
                             {"uploads", "10000"},
                             {"tunes", "1000"},
                             {"queries", "500"},
                             {"seed", "1"},
                             {"out", "http-fuzz-results"},
                             {"timeout-seconds", "60"},
                             {"rss-limit-mb", "1024"},
                             {"term-limit-seconds", "5"},
                             {"keep", "0"}},
                            kUsage);
    if (flags.text("ktuned").empty()) throw std::invalid_argument(kUsage);
    signal(SIGPIPE, SIG_IGN);
    return HttpFuzz(flags).run();
  } catch (const std::invalid_argument& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
}
