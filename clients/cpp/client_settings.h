#pragma once
// ClientOptions with every default resolved from the environment, as the `ktune` CLI
// resolves its own: $KTUNE_SERVER, $KTUNE_TOKEN, and the cache directory of compiled kernels.
#include <string>

#include "clients/cli_args.h"
#include "ktune/tuned_kernel.h"

namespace ktune {

struct ClientSettings {
  ServerAddress server;
  std::string token;
  std::string cache_dir;  // empty: no disk cache (no directory could be named)
};

// Throws std::invalid_argument for a malformed server address.
ClientSettings resolve_settings(const ClientOptions& options);

// $KTUNE_CACHE_DIR, else $XDG_CACHE_HOME/ktune, else $HOME/.cache/ktune, else empty.
std::string default_cache_dir();

}  // namespace ktune
