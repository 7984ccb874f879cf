#include "bench/soak/printable_text.h"

namespace ktune::soak {

std::string printable(std::string_view bytes, size_t max_bytes, bool keep_newlines) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < bytes.size() && i < max_bytes; ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if ((c >= 0x20 && c < 0x7f && c != '\\') || (keep_newlines && c == '\n')) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  if (bytes.size() > max_bytes) out += "... (" + std::to_string(bytes.size()) + " bytes)";
  return out;
}

}  // namespace ktune::soak
