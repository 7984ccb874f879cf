#pragma once
// What the client tells its caller once per process: a fallback taken on every call would
// otherwise repeat the same line for each matrix and each launch.
#include <functional>
#include <string>

namespace ktune {

// Calls `sink` (or writes "ktune: <message>" to stderr when it is empty) the first time
// `topic` is told in this process; later calls with the same topic do nothing. Thread safe.
// Returns whether it told.
bool tell_once(const std::string& topic, const std::string& message, const std::function<void(const std::string&)>& sink);

}  // namespace ktune
