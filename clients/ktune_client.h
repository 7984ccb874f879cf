#pragma once
// A small C++ client for ktuned's REST API (docs/api.md). It speaks HTTP only, so it works
// against any daemon, local or remote, and never links the server's code.
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ktune {

// The daemon refused or failed a request, or could not be reached at all.
class ClientError : public std::runtime_error {
 public:
  ClientError(int http_status, std::string message);

  int http_status;      // 0: the server could not be reached
  std::string message;  // the server's "error" text, or why the server was unreachable
};

// A local file given to the client could not be read (nothing was sent).
class FileReadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class KtuneClient {
 public:
  // `token` is sent as "Authorization: Bearer <token>" when not empty; a daemon reachable
  // from other machines requires it (ktuned --auth-token-file).
  KtuneClient(std::string host, int port, std::string token = token_from_environment());
  // $KTUNE_TOKEN, or empty.
  static std::string token_from_environment();

  // Sends the file's bytes unchanged: the daemon recognises gzip by its magic bytes.
  nlohmann::json upload_matrix(const std::string& path);
  // The same for Matrix Market text (plain or gzip) held in memory; `name` labels it in reports.
  nlohmann::json upload_matrix_bytes(const std::string& bytes, const std::string& name);
  // DELETE /v1/matrices/{id}: the stored upload goes (answers tuned on it stay).
  nlohmann::json delete_upload(const std::string& id);
  // 200 with the tune answer, or 202 with {"job", "state"}: see docs/api.md.
  nlohmann::json tune(const nlohmann::json& request);
  nlohmann::json job(const std::string& id);
  nlohmann::json cancel(const std::string& id);
  // `features` lets the daemon answer with the nearest stored neighbour; `problem` (an
  // object, or null for the family's defaults) is the family's parameters, e.g. SpMM's k.
  nlohmann::json lookup(const std::string& kernel, const std::string& signature,
                        const std::string& dtype,
                        const std::optional<std::string>& device = std::nullopt,
                        const std::vector<double>& features = {},
                        const nlohmann::json& problem = nullptr);
  std::string report_text();
  nlohmann::json report();
  nlohmann::json kernels();
  // POST /v1/devices/{device}/calibrate: synchronous, so it waits up to 15 minutes.
  nlohmann::json calibrate(const std::string& device = "this");
  bool healthy();

  const std::string& host() const { return host_; }
  int port() const { return port_; }
  const std::string& token() const { return token_; }

 private:
  std::string host_;
  int port_;
  std::string token_;
};

}  // namespace ktune
