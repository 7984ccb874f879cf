#include "model/ptx/ptx_lexer.h"

#include <cctype>

#include "workload/input_error.h"

namespace ktune::ptx {

namespace {

bool word_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' || c == '.';
}
bool word_char(char c) { return word_start(c) || std::isdigit(static_cast<unsigned char>(c)); }

}  // namespace

std::vector<Token> tokenize_ptx(std::string_view s) {
  std::vector<Token> tokens;
  uint32_t line = 1;
  size_t i = 0;
  const size_t n = s.size();
  while (i < n) {
    const char c = s[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      i += 2;
      while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) {
        if (s[i] == '\n') ++line;
        ++i;
      }
      i += 2;
    } else if (c == '"') {
      const size_t start = i++;
      while (i < n && s[i] != '"' && s[i] != '\n') ++i;
      if (i >= n || s[i] != '"') throw InputError("PTX line " + std::to_string(line) + ": unterminated string");
      ++i;
      tokens.push_back({TokenKind::String, s.substr(start, i - start), line});
    } else if (word_start(c)) {
      const size_t start = i;
      while (i < n && (word_char(s[i]) || (s[i] == ':' && i + 1 < n && s[i + 1] == ':'))) {
        i += s[i] == ':' ? 2 : 1;
      }
      tokens.push_back({TokenKind::Word, s.substr(start, i - start), line});
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      const size_t start = i;
      while (i < n && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.')) {
        // An exponent's sign belongs to the number: 1.5e-3.
        const bool exponent_sign = (s[i] == 'e' || s[i] == 'E') && i + 1 < n &&
                                   (s[i + 1] == '-' || s[i + 1] == '+') &&
                                   s.substr(start, 2) != "0x" && s.substr(start, 2) != "0X";
        i += exponent_sign ? 2 : 1;
      }
      tokens.push_back({TokenKind::Number, s.substr(start, i - start), line});
    } else if (std::string_view("{}()[]<>,;:@!|+-=").find(c) != std::string_view::npos) {
      tokens.push_back({TokenKind::Punct, s.substr(i, 1), line});
      ++i;
    } else {
      throw InputError("PTX line " + std::to_string(line) + ": unexpected character '" +
                       std::string(1, c) + "'");
    }
  }
  tokens.push_back({TokenKind::End, {}, line});
  return tokens;
}

}  // namespace ktune::ptx
