#include "server/dashboard_assets.h"

#include <map>

#include "dashboard_files.h"

namespace ktune {

const DashboardAsset* dashboard_asset(const std::string& path) {
  namespace files = ktune::dashboard;
  static const char* kHtml = "text/html; charset=utf-8";
  static const char* kJs = "text/javascript; charset=utf-8";
  static const char* kCss = "text/css; charset=utf-8";
  static const std::map<std::string, DashboardAsset, std::less<>> assets = {
      {"/", {files::k_index_html, kHtml}},
      {"/dashboard/api.js", {files::k_api_js, kJs}},
      {"/dashboard/app.js", {files::k_app_js, kJs}},
      {"/dashboard/charts.js", {files::k_charts_js, kJs}},
      {"/dashboard/format.js", {files::k_format_js, kJs}},
      {"/dashboard/job_view.js", {files::k_job_view_js, kJs}},
      {"/dashboard/style.css", {files::k_style_css, kCss}},
      {"/dashboard/tables.js", {files::k_tables_js, kJs}},
      {"/dashboard/uPlot.iife.min.js", {files::k_uPlot_iife_min_js, kJs}},
      {"/dashboard/uPlot.min.css", {files::k_uPlot_min_css, kCss}},
  };
  const auto it = assets.find(path);
  return it == assets.end() ? nullptr : &it->second;
}

}  // namespace ktune
