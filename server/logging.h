#pragma once
// Levelled logging to stderr, one line per event, safe from any thread.
#include <string>

namespace ktune {

enum class LogLevel { Debug = 0, Info = 1, Warn = 2, Error = 3 };

void set_log_level(LogLevel level);
LogLevel log_level_from_string(const std::string& s);  // throws InputError
void log(LogLevel level, const std::string& message);
inline void log_info(const std::string& m) { log(LogLevel::Info, m); }
inline void log_warn(const std::string& m) { log(LogLevel::Warn, m); }
inline void log_error(const std::string& m) { log(LogLevel::Error, m); }
inline void log_debug(const std::string& m) { log(LogLevel::Debug, m); }

}  // namespace ktune
