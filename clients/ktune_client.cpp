#include "clients/ktune_client.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <utility>

#include <httplib.h>

namespace ktune {
namespace {

using nlohmann::json;

constexpr time_t kConnectTimeoutSeconds = 5;
constexpr time_t kReadTimeoutSeconds = 60;
// With "wait": true the daemon holds the request open for up to wait_seconds (default 600).
constexpr time_t kTuneReadTimeoutSeconds = 660;
// The calibration suite runs synchronously on the daemon's GPU.
constexpr time_t kCalibrateReadTimeoutSeconds = 900;


httplib::Client connect(const KtuneClient& to, time_t read_timeout_seconds) {
  httplib::Client client(to.host(), to.port());
  client.set_connection_timeout(kConnectTimeoutSeconds);
  client.set_read_timeout(read_timeout_seconds);
  if (!to.token().empty()) client.set_bearer_token_auth(to.token().c_str());
  return client;
}

std::string server_error_text(const httplib::Response& response) {
  const json body = json::parse(response.body, nullptr, false);
  if (body.is_object() && body.contains("error") && body["error"].is_string()) {
    return body["error"].get<std::string>();
  }
  if (!response.body.empty()) return response.body;
  return "HTTP " + std::to_string(response.status);
}

std::string transport_failure(httplib::Error error) {
  switch (error) {
    case httplib::Error::Connection: return "connection refused or failed";
    case httplib::Error::ConnectionTimeout: return "connection timed out";
    case httplib::Error::Read: return "no complete answer";
    case httplib::Error::Write: return "the request could not be sent";
    default: return httplib::to_string(error);
  }
}

std::string checked_body(const httplib::Result& result, const KtuneClient& client) {
  if (!result) {
    throw ClientError(0, "cannot reach ktuned at " + client.host() + ":" +
                             std::to_string(client.port()) + " (" +
                             transport_failure(result.error()) + ")");
  }
  if (result->status < 200 || result->status >= 300) {
    throw ClientError(result->status, server_error_text(*result));
  }
  return result->body;
}

json checked_json(const httplib::Result& result, const KtuneClient& client) {
  const std::string body = checked_body(result, client);
  json parsed = json::parse(body, nullptr, false);
  if (parsed.is_discarded()) {
    throw ClientError(result->status, "ktuned answered with malformed JSON: " + body.substr(0, 200));
  }
  return parsed;
}

// Ids come from the user's command line: keep them inside one path segment.
std::string path_segment(const std::string& text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string read_file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FileReadError("cannot open '" + path + "': " + std::strerror(errno));
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw FileReadError("cannot read '" + path + "': " + std::strerror(errno));
  return bytes;
}

bool is_gzip(const std::string& bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

std::string comma_separated(const std::vector<double>& values) {
  std::string out;
  for (double v : values) {
    if (!out.empty()) out += ',';
    out += json(v).dump();
  }
  return out;
}

}  // namespace

ClientError::ClientError(int status, std::string text)
    : std::runtime_error(text), http_status(status), message(std::move(text)) {}

KtuneClient::KtuneClient(std::string host, int port, std::string token)
    : host_(std::move(host)), port_(port), token_(std::move(token)) {}

std::string KtuneClient::token_from_environment() {
  const char* token = std::getenv("KTUNE_TOKEN");
  return token ? token : "";
}



json KtuneClient::upload_matrix(const std::string& path) {
  // The file name labels the workload in the daemon's reports.
  return upload_matrix_bytes(read_file_bytes(path), std::filesystem::path(path).filename().string());
}

json KtuneClient::upload_matrix_bytes(const std::string& bytes, const std::string& name) {
  auto client = connect(*this, kReadTimeoutSeconds);
  const char* content_type = is_gzip(bytes) ? "application/gzip" : "text/plain";
  return checked_json(client.Post("/v1/matrices?name=" + path_segment(name), bytes, content_type),
                      *this);
}

json KtuneClient::tune(const json& request) {
  auto client = connect(*this, kTuneReadTimeoutSeconds);
  return checked_json(client.Post("/v1/tune", request.dump(), "application/json"), *this);
}

json KtuneClient::calibrate(const std::string& device) {
  auto client = connect(*this, kCalibrateReadTimeoutSeconds);
  return checked_json(client.Post("/v1/devices/" + path_segment(device) + "/calibrate", "", "application/json"), *this);
}

json KtuneClient::delete_upload(const std::string& id) {
  auto client = connect(*this, kReadTimeoutSeconds);
  return checked_json(client.Delete("/v1/matrices/" + path_segment(id)), *this);
}

json KtuneClient::job(const std::string& id) {
  auto client = connect(*this, kReadTimeoutSeconds);
  return checked_json(client.Get("/v1/jobs/" + path_segment(id)), *this);
}

json KtuneClient::cancel(const std::string& id) {
  auto client = connect(*this, kReadTimeoutSeconds);
  return checked_json(client.Delete("/v1/jobs/" + path_segment(id)), *this);
}

json KtuneClient::lookup(const std::string& kernel, const std::string& signature,
                         const std::string& dtype, const std::optional<std::string>& device,
                         const std::vector<double>& features, const json& problem) {
  httplib::Params params{{"kernel", kernel}, {"signature", signature}, {"dtype", dtype}};
  if (device) params.emplace("device", *device);
  if (!features.empty()) params.emplace("features", comma_separated(features));
  if (!problem.is_null()) params.emplace("problem", problem.dump());
  auto client = connect(*this, kReadTimeoutSeconds);
  return checked_json(client.Get("/v1/configs", params, httplib::Headers{}), *this);
}

std::string KtuneClient::report_text() {
  auto client = connect(*this, kReadTimeoutSeconds);
  return checked_body(client.Get("/v1/report?format=text"), *this);
}

json KtuneClient::report() {
  auto client = connect(*this, kReadTimeoutSeconds);
  return checked_json(client.Get("/v1/report"), *this);
}

json KtuneClient::kernels() {
  auto client = connect(*this, kReadTimeoutSeconds);
  return checked_json(client.Get("/v1/kernels"), *this);
}

bool KtuneClient::healthy() {
  auto client = connect(*this, kReadTimeoutSeconds);
  const auto result = client.Get("/healthz");
  return result && result->status == 200;
}

}  // namespace ktune
