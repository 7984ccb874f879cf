#include "server/auth.h"

#include <fstream>
#include <iterator>

#include "workload/input_error.h"

namespace ktune {

std::string read_auth_token(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot read the auth token file '" + path + "'");
  std::string token(std::istreambuf_iterator<char>(in), {});
  const char* blanks = " \t\r\n";
  token.erase(0, token.find_first_not_of(blanks));
  token.erase(token.find_last_not_of(blanks) + 1);
  if (token.size() < 16)
    throw InputError("the auth token in '" + path + "' has " + std::to_string(token.size()) +
                     " characters; use at least 16 (e.g. head -c 32 /dev/urandom | base64)");
  if (token.find_first_of(blanks) != std::string::npos)
    throw InputError("the auth token in '" + path + "' holds whitespace; it must be one word");
  return token;
}

bool bearer_token_matches(const std::string& authorization, const std::string& token) {
  const std::string prefix = "Bearer ";
  if (authorization.size() != prefix.size() + token.size() || authorization.compare(0, prefix.size(), prefix) != 0)
    return false;
  unsigned char difference = 0;
  for (size_t i = 0; i < token.size(); ++i)
    difference |= static_cast<unsigned char>(authorization[prefix.size() + i] ^ token[i]);
  return difference == 0;
}

}  // namespace ktune
