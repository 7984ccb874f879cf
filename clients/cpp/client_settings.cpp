#include "clients/cpp/client_settings.h"

#include <cstdlib>
#include <stdexcept>

#include "clients/ktune_client.h"

namespace ktune {
namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

}  // namespace

std::string default_cache_dir() {
  if (std::string dir = environment("KTUNE_CACHE_DIR"); !dir.empty()) return dir;
  if (std::string xdg = environment("XDG_CACHE_HOME"); !xdg.empty()) return xdg + "/ktune";
  if (std::string home = environment("HOME"); !home.empty()) return home + "/.cache/ktune";
  return "";
}

ClientSettings resolve_settings(const ClientOptions& options) {
  ClientSettings s;
  std::string server = options.server.empty() ? environment("KTUNE_SERVER") : options.server;
  if (server.empty()) server = kDefaultServer;
  try {
    s.server = parse_server_address(server);
  } catch (const UsageError& e) {
    throw std::invalid_argument(e.what());
  }
  s.token = options.token.empty() ? KtuneClient::token_from_environment() : options.token;
  s.cache_dir = options.cache_dir.empty() ? default_cache_dir() : options.cache_dir;
  return s;
}

}  // namespace ktune
