#include "clients/cpp/disk_compile_store.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

namespace ktune {
namespace {

// The file: one line of JSON (what the kernel is besides its binary), then the cubin's bytes.
constexpr const char* kFormat = "ktune-kernel-v1";

nlohmann::json header_of(const CompiledKernel& k) {
  return {{"format", kFormat},
          {"key", k.key},
          {"ok", k.ok},
          {"log", k.log},
          {"lowered_names", k.lowered_names},
          {"usage", k.usage},
          {"compile_seconds", k.compile_seconds},
          {"cubin_bytes", k.cubin.size()}};
}

std::optional<CompiledKernel> kernel_of(const nlohmann::json& h, std::string cubin) {
  CompiledKernel k;
  k.key = h.at("key").get<std::string>();
  k.ok = h.at("ok").get<bool>();
  k.log = h.at("log").get<std::string>();
  k.lowered_names = h.at("lowered_names").get<std::map<std::string, std::string>>();
  k.usage = h.at("usage").get<std::map<std::string, ResourceUsage>>();
  k.compile_seconds = h.at("compile_seconds").get<double>();
  k.cubin = std::move(cubin);
  return k;
}

}  // namespace

DiskCompileStore::DiskCompileStore(std::string directory) : directory_(std::move(directory)) {}

std::string DiskCompileStore::path_of(const std::string& key) const { return directory_ + "/" + key + ".kernel"; }

std::optional<CompiledKernel> DiskCompileStore::load(const std::string& key) {
  std::ifstream in(path_of(key), std::ios::binary);
  if (!in) return std::nullopt;
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  const nlohmann::json header = nlohmann::json::parse(line, nullptr, false);
  if (!header.is_object() || header.value("format", "") != kFormat || header.value("key", "") != key) return std::nullopt;
  std::string cubin((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    if (cubin.size() != header.at("cubin_bytes").get<size_t>()) return std::nullopt;
    return kernel_of(header, std::move(cubin));
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

void DiskCompileStore::save(const CompiledKernel& kernel) {
  // A compile error is the request's and cheap to meet again; only binaries are worth a file.
  if (!kernel.ok || kernel.cubin.empty()) return;
  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  std::ostringstream unique;
  unique << path_of(kernel.key) << ".tmp-" << ::getpid() << "-" << std::this_thread::get_id();
  const std::string temporary = unique.str();
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return;
    out << header_of(kernel).dump() << '\n';
    out.write(kernel.cubin.data(), static_cast<std::streamsize>(kernel.cubin.size()));
    if (!out) {
      out.close();
      std::filesystem::remove(temporary, error);
      return;
    }
  }
  std::filesystem::rename(temporary, path_of(kernel.key), error);
  if (error) std::filesystem::remove(temporary, error);
}

}  // namespace ktune
