#pragma once
// Failures of the service itself that a client can retry or must resolve (not input errors).
#include <stdexcept>

namespace ktune {

// The job queue is full or the daemon is shutting down (HTTP 503).
class UnavailableError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The request conflicts with the current state, e.g. cancelling a finished job (HTTP 409).
class ConflictError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ktune
