#include "bench/soak/daemon_events.h"

#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "bench/soak/printable_text.h"

namespace ktune::soak {
namespace {

std::string signal_name(int signal) {
  return signal == SIGTERM ? "SIGTERM" : signal == SIGKILL ? "SIGKILL" : std::to_string(signal);
}

std::string fixed(double value, int digits) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

}  // namespace

void DaemonEvents::stopped(double at, const std::string& why, const DaemonExit& exit) {
  stops_.push_back({at, why, exit});
}

void DaemonEvents::crashed(double at, const DaemonExit& exit, const std::string& cause, const std::string& log_tail) {
  crashes_.push_back({at, exit, cause, log_tail});
}

std::vector<std::string> DaemonEvents::failures(double term_limit_seconds) const {
  std::vector<std::string> out;
  for (const Crash& c : crashes_)
    out.push_back("crash at " + fixed(c.at, 1) + " s (" + c.exit.status + ")" +
                  (c.cause.empty() ? "" : " during " + printable(c.cause, 200)));
  for (const Stop& s : stops_) {
    if (s.exit.signal != SIGTERM) continue;
    if (s.exit.forced)
      out.push_back("SIGTERM at " + fixed(s.at, 1) + " s (" + s.why +
                    "): still running after the grace period, killed");
    else if (s.exit.seconds > term_limit_seconds)
      out.push_back("SIGTERM at " + fixed(s.at, 1) + " s (" + s.why + "): exit took " + fixed(s.exit.seconds, 2) +
                    " s, more than " + fixed(term_limit_seconds, 0) + " s");
    else if (!s.exit.clean)
      out.push_back("SIGTERM at " + fixed(s.at, 1) + " s (" + s.why + "): unclean exit, " + s.exit.status);
  }
  return out;
}

nlohmann::json DaemonEvents::to_json() const {
  nlohmann::json stops = nlohmann::json::array(), crashes = nlohmann::json::array();
  double slowest_term = 0;
  for (const Stop& s : stops_) {
    stops.push_back({{"at_s", s.at},
                     {"why", s.why},
                     {"signal", signal_name(s.exit.signal)},
                     {"exit_seconds", s.exit.seconds},
                     {"status", s.exit.status},
                     {"clean", s.exit.clean},
                     {"forced", s.exit.forced}});
    if (s.exit.signal == SIGTERM) slowest_term = std::max(slowest_term, s.exit.seconds);
  }
  for (const Crash& c : crashes_)
    crashes.push_back({{"at_s", c.at},
                       {"status", c.exit.status},
                       {"during", printable(c.cause, 2000)},
                       {"log_tail", printable(c.log_tail, 4000)}});
  return {{"stops", stops}, {"crashes", crashes}, {"slowest_sigterm_exit_s", slowest_term}};
}

std::string DaemonEvents::markdown() const {
  std::ostringstream md;
  md << "| at (s) | why | signal | exit took (s) | status |\n|---:|---|---|---:|---|\n";
  for (const Stop& s : stops_)
    md << "| " << fixed(s.at, 1) << " | " << s.why << " | " << signal_name(s.exit.signal) << " | "
       << fixed(s.exit.seconds, 3) << " | " << s.exit.status << (s.exit.forced ? ", killed after the grace period" : "")
       << " |\n";
  md << "\nCrashes: " << crashes_.size() << "\n";
  for (const Crash& c : crashes_) {
    md << "\n- at " << fixed(c.at, 1) << " s: " << c.exit.status;
    if (!c.cause.empty()) md << ", during `" << printable(c.cause, 300) << "`";
    const std::string tail = c.log_tail.substr(c.log_tail.size() > 1000 ? c.log_tail.size() - 1000 : 0);
    md << (tail.empty() ? ", nothing in its log\n" : "\n\n```\n" + printable(tail, 1000, true) + "\n```\n");
  }
  return md.str();
}

}  // namespace ktune::soak
