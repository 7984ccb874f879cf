#pragma once
// Tokens of PTX text. Words keep their dots ("ld.global.nc.u32", "%tid.x", ".reg") and
// "::" ("L1::no_allocate"), so that an opcode with all its modifiers is one token; a single
// ':' ends a label. Comments are dropped.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ktune::ptx {

enum class TokenKind : uint8_t { Word, Number, String, Punct, End };

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;  // into the source; Punct is one character
  uint32_t line = 0;
};

// Throws InputError on a character PTX does not use, naming the line.
std::vector<Token> tokenize_ptx(std::string_view text);

}  // namespace ktune::ptx
