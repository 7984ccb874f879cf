#pragma once
// Exit statuses of the `ktune` CLI. Scripts rely on them: change none, only add.
namespace ktune {

enum ExitCode : int {
  kExitSuccess = 0,
  kExitUsage = 2,          // bad arguments, or a FILE that cannot be read
  kExitUnreachable = 3,    // no ktuned answered at the server address
  kExitRejected = 4,       // the server refused the request (HTTP 4xx)
  kExitServerError = 5,    // the server failed (HTTP 5xx or a malformed answer)
  kExitJobFailed = 6,      // the tuning job failed or was cancelled
  kExitNotFound = 7,       // lookup: nothing stored for this workload
};

inline ExitCode exit_code_for_http_status(int http_status) {
  if (http_status == 0) return kExitUnreachable;
  if (http_status >= 400 && http_status < 500) return kExitRejected;
  return kExitServerError;
}

}  // namespace ktune
