#pragma once
// Bearer-token authentication of every route but /healthz, for a daemon others can reach.
#include <string>

namespace ktune {

// The token in `path` (surrounding whitespace dropped). InputError when the file cannot be
// read or the token is shorter than 16 characters (a guessable one protects nothing).
std::string read_auth_token(const std::string& path);

// Whether an Authorization header value is "Bearer <token>"; compares in constant time.
bool bearer_token_matches(const std::string& authorization, const std::string& token);

}  // namespace ktune
