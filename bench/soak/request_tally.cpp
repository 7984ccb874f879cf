#include "bench/soak/request_tally.h"

#include <sstream>

#include "bench/soak/printable_text.h"

namespace ktune::soak {
namespace {

// A report lists this many of each kind per route; the counts stay exact beyond.
constexpr size_t kListedPerRoute = 50;

std::string outcome_name(const Reply& r) {
  if (r.answered) return std::to_string(r.status);
  if (r.timed_out) return "client timeout";
  if (r.cut_by_restart) return "cut by restart";
  return "no answer: " + r.error;
}

std::string status_class(const std::string& outcome) {
  return outcome.size() == 3 && outcome[0] >= '1' && outcome[0] <= '5' ? std::string(1, outcome[0]) + "xx" : "none";
}

}  // namespace

void RequestTally::list(std::vector<Listed>& where, Listed item) {
  size_t same_route = 0;
  for (const Listed& l : where) same_route += l.route == item.route;
  if (same_route < kListedPerRoute) where.push_back(std::move(item));
}

void RequestTally::record(const std::string& route, const Reply& reply, const std::string& request) {
  const std::string outcome = outcome_name(reply);
  std::lock_guard<std::mutex> lock(mutex_);
  ++requests_;
  ++by_route_[route][outcome];
  ++by_outcome_[outcome];
  if (reply.answered && reply.status >= 500) {
    ++server_errors_;
    list(server_error_list_,
         {route, printable(request), std::to_string(reply.status) + " " + printable(reply.body, 2000)});
  } else if (reply.timed_out) {
    ++timeouts_;
  } else if (reply.cut_by_restart) {
    ++cut_;
  } else if (!reply.answered) {
    ++failures_;
    std::ostringstream detail;
    detail << reply.error << " after " << reply.seconds << " s";
    list(failure_list_, {route, printable(request), detail.str()});
  }
}

void RequestTally::record_problem(const std::string& route, const std::string& request, const std::string& problem) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++problems_;
  list(problem_list_, {route, printable(request), printable(problem, 2000)});
}

int64_t RequestTally::requests() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return requests_;
}
int64_t RequestTally::server_errors() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return server_errors_;
}
int64_t RequestTally::connection_failures() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failures_;
}
int64_t RequestTally::timeouts() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return timeouts_;
}
int64_t RequestTally::problems() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return problems_;
}

nlohmann::json RequestTally::to_json() const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto listed = [](const std::vector<Listed>& items) {
    nlohmann::json out = nlohmann::json::array();
    for (const Listed& i : items) out.push_back({{"route", i.route}, {"request", i.request}, {"detail", i.detail}});
    return out;
  };
  nlohmann::json routes = nlohmann::json::object();
  for (const auto& [route, outcomes] : by_route_) {
    int64_t total = 0;
    for (const auto& [outcome, n] : outcomes) total += n;
    routes[route] = {{"requests", total}, {"outcomes", outcomes}};
  }
  return {{"requests", requests_},
          {"server_errors", server_errors_},
          {"connection_failures", failures_},
          {"client_timeouts", timeouts_},
          {"cut_by_restart", cut_},
          {"bad_answers", problems_},
          {"by_route", routes},
          {"by_outcome", by_outcome_},
          {"server_error_list", listed(server_error_list_)},
          {"connection_failure_list", listed(failure_list_)},
          {"bad_answer_list", listed(problem_list_)}};
}

std::string RequestTally::markdown() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::ostringstream md;
  md << "| route | requests | 2xx | 4xx | 5xx | no answer | outcomes |\n|---|---:|---:|---:|---:|---:|---|\n";
  for (const auto& [route, outcomes] : by_route_) {
    std::map<std::string, int64_t> classes;
    int64_t total = 0;
    std::string detail;
    for (const auto& [outcome, n] : outcomes) {
      total += n;
      classes[status_class(outcome)] += n;
      detail += (detail.empty() ? "" : ", ") + outcome + ": " + std::to_string(n);
    }
    md << "| `" << route << "` | " << total << " | " << classes["2xx"] << " | " << classes["4xx"] << " | "
       << classes["5xx"] << " | " << classes["none"] << " | " << detail << " |\n";
  }
  md << "\n| status | responses |\n|---|---:|\n";
  for (const auto& [outcome, n] : by_outcome_) md << "| " << outcome << " | " << n << " |\n";
  auto section = [&md](const char* title, int64_t count, const std::vector<Listed>& items) {
    md << "\n### " << title << ": " << count << "\n";
    if (items.empty()) return;
    md << "\n| route | request | answer |\n|---|---|---|\n";
    auto cell = [](std::string s) {
      std::string out;
      for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
      return out.size() > 300 ? out.substr(0, 300) + "..." : out;
    };
    for (const Listed& i : items)
      md << "| `" << i.route << "` | " << cell(i.request) << " | " << cell(i.detail) << " |\n";
  };
  section("5xx answers", server_errors_, server_error_list_);
  section("Connection failures (not the client's timeout, not a restart)", failures_, failure_list_);
  section("Answers breaking the API's rules", problems_, problem_list_);
  md << "\nClient timeouts: " << timeouts_ << "; requests cut by a restart: " << cut_ << ".\n";
  return md.str();
}

}  // namespace ktune::soak
