#pragma once
// SHA-256 over OpenSSL's EVP interface (SHA-NI where the CPU has it): the project's one
// hashing helper, for signatures, cache keys and upload ids.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

struct evp_md_ctx_st;  // OpenSSL's EVP_MD_CTX, kept out of this header

namespace ktune {

class Sha256 {
 public:
  Sha256();
  void update(const void* data, size_t size);
  void update(std::string_view bytes) { update(bytes.data(), bytes.size()); }
  // Lowercase hex digest of everything so far; more updates may follow.
  std::string hex_digest() const;

 private:
  struct FreeContext {
    void operator()(evp_md_ctx_st* context) const;
  };
  std::unique_ptr<evp_md_ctx_st, FreeContext> context_;
};

std::string sha256_hex(std::string_view bytes);

}  // namespace ktune
