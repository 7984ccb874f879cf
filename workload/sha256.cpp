#include "workload/sha256.h"

#include <openssl/evp.h>

#include <new>
#include <stdexcept>

namespace ktune {
namespace {

void check(int ok, const char* what) {
  if (ok != 1) throw std::runtime_error(std::string("OpenSSL SHA-256 failed in ") + what);
}

}  // namespace

void Sha256::FreeContext::operator()(evp_md_ctx_st* context) const { EVP_MD_CTX_free(context); }

Sha256::Sha256() : context_(EVP_MD_CTX_new()) {
  if (!context_) throw std::bad_alloc();
  check(EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr), "EVP_DigestInit_ex");
}

void Sha256::update(const void* data, size_t size) {
  check(EVP_DigestUpdate(context_.get(), data, size), "EVP_DigestUpdate");
}

std::string Sha256::hex_digest() const {
  // Finish a copy, so that this hash can go on.
  std::unique_ptr<evp_md_ctx_st, FreeContext> copy(EVP_MD_CTX_new());
  if (!copy) throw std::bad_alloc();
  check(EVP_MD_CTX_copy_ex(copy.get(), context_.get()), "EVP_MD_CTX_copy_ex");
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  check(EVP_DigestFinal_ex(copy.get(), digest, &length), "EVP_DigestFinal_ex");
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 15];
  }
  return hex;
}

std::string sha256_hex(std::string_view bytes) {
  Sha256 hash;
  hash.update(bytes);
  return hash.hex_digest();
}

}  // namespace ktune
