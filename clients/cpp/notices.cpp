#include "clients/cpp/notices.h"

#include <iostream>
#include <mutex>
#include <set>

namespace ktune {

bool tell_once(const std::string& topic, const std::string& message, const std::function<void(const std::string&)>& sink) {
  static std::mutex mutex;
  static std::set<std::string> told;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!told.insert(topic).second) return false;
  }
  if (sink) sink(message);
  else std::cerr << "ktune: " << message << std::endl;
  return true;
}

}  // namespace ktune
