#pragma once
// The dashboard (GET /): an HTML page, its scripts and styles and the plotting library they use,
// embedded at build time from server/dashboard/ so that ktuned serves it with no files beside it.
#include <string>
#include <string_view>

namespace ktune {

struct DashboardAsset {
  std::string_view content;
  const char* content_type;
};

// The asset served at `path` ("/" is the page, the rest live under "/dashboard/"); null for any
// other path. The assets hold no data, so a daemon with a token serves them without one: the page
// asks for the token and sends it with its API requests.
const DashboardAsset* dashboard_asset(const std::string& path);

}  // namespace ktune
