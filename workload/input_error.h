#pragma once
// Errors caused by what a client sent (malformed files, absurd sizes, bad parameters).
// The server answers these with 4xx and the message; anything else is a 5xx.
#include <stdexcept>
#include <string>

namespace ktune {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Input that is well formed but larger than the configured limits (HTTP 413).
class LimitError : public InputError {
 public:
  using InputError::InputError;
};

// A request for something that does not exist (HTTP 404).
class NotFoundError : public InputError {
 public:
  using InputError::InputError;
};

// A request for something the client may not have, such as a path outside the data dir (403).
class ForbiddenError : public InputError {
 public:
  using InputError::InputError;
};

}  // namespace ktune
