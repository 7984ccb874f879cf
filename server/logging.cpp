#include "server/logging.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>

#include "workload/input_error.h"

namespace ktune {
namespace {
std::atomic<int> g_level{static_cast<int>(LogLevel::Info)};
std::mutex g_mutex;
const char* names[] = {"debug", "info", "warn", "error"};
}  // namespace

void set_log_level(LogLevel level) { g_level = static_cast<int>(level); }

LogLevel log_level_from_string(const std::string& s) {
  for (int i = 0; i < 4; ++i)
    if (s == names[i]) return static_cast<LogLevel>(i);
  throw InputError("unknown log level '" + s + "' (debug, info, warn, error)");
}

void log(LogLevel level, const std::string& message) {
  if (static_cast<int>(level) < g_level) return;
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
  std::lock_guard<std::mutex> lock(g_mutex);
  std::fprintf(stderr, "%s ktuned %s: %s\n", stamp, names[static_cast<int>(level)], message.c_str());
}

}  // namespace ktune
