#include "gpu/nvrtc_compiler.h"

#include <nvrtc.h>

#include <chrono>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "gpu/ptxas_info.h"
#include "workload/sha256.h"

namespace ktune {
namespace {

// Error messages of NVRTC name this file, e.g. "ktune_kernel.cu(17): error: ...".
constexpr const char* kProgramName = "ktune_kernel.cu";

// Bump when the options below change: results compiled under the old ones are stale (v1's
// could lack the resource usage of kernels that NVRTC's own cache served).
constexpr const char* kKeyFormat = "ktune-nvrtc-v2";

// NVRTC 12.9 and later keep a compilation cache of their own; a hit skips ptxas, and with it
// the -v report, so the kernel comes back without its registers and shared memory (seen on
// the H200 machine: a third of a tune's candidates fell back to the first cost model). ktune
// caches compiled kernels itself (compile_cache.h, the database), so NVRTC's is turned off.
bool nvrtc_has_own_cache() {
  int major = 0, minor = 0;
  return nvrtcVersion(&major, &minor) == NVRTC_SUCCESS && (major > 12 || (major == 12 && minor >= 9));
}

std::vector<std::string> fixed_options(const std::string& arch) {
  // -Xptxas=-v makes ptxas print per-kernel registers, shared memory and spills into
  // the program log, which is where parse_ptxas_info reads them.
  std::vector<std::string> options = {"--gpu-architecture=" + arch, "-default-device", "-std=c++17", "-Xptxas=-v"};
  static const bool own_cache = nvrtc_has_own_cache();
  if (own_cache) options.push_back("--no-cache");
  return options;
}

void check(nvrtcResult result, const char* step) {
  if (result != NVRTC_SUCCESS) {
    throw std::runtime_error(std::string("NVRTC failed while ") + step + ": " +
                             nvrtcGetErrorString(result));
  }
}

class Program {
 public:
  explicit Program(const std::string& code) {
    check(nvrtcCreateProgram(&handle_, code.c_str(), kProgramName, 0, nullptr, nullptr),
          "creating a program");
  }
  ~Program() { nvrtcDestroyProgram(&handle_); }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  nvrtcProgram get() const { return handle_; }

  std::string log() const {
    size_t size = 0;
    check(nvrtcGetProgramLogSize(handle_, &size), "reading the log size");
    std::string text(size, '\0');
    check(nvrtcGetProgramLog(handle_, text.data()), "reading the log");
    return trim_terminator(std::move(text));
  }

  std::string ptx() const {
    size_t size = 0;
    check(nvrtcGetPTXSize(handle_, &size), "reading the PTX size");
    std::string text(size, '\0');
    check(nvrtcGetPTX(handle_, text.data()), "reading the PTX");
    return trim_terminator(std::move(text));
  }

  std::string cubin() const {
    size_t size = 0;
    check(nvrtcGetCUBINSize(handle_, &size), "reading the CUBIN size");
    std::string bytes(size, '\0');
    check(nvrtcGetCUBIN(handle_, bytes.data()), "reading the CUBIN");
    return bytes;
  }

 private:
  // NVRTC's text sizes count the terminating NUL.
  static std::string trim_terminator(std::string text) {
    while (!text.empty() && text.back() == '\0') text.pop_back();
    return text;
  }

  nvrtcProgram handle_ = nullptr;
};

bool produces_cubin(const std::string& arch) { return arch.rfind("sm_", 0) == 0; }

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

std::string NvrtcCompiler::version() {
  int major = 0;
  int minor = 0;
  check(nvrtcVersion(&major, &minor), "reading its version");
  return std::to_string(major) + "." + std::to_string(minor);
}

std::string NvrtcCompiler::cache_key(const CompileRequest& request) {
  // Length-prefixed fields and explicit counts, so that no two requests frame alike.
  Sha256 hash;
  auto field = [&hash](std::string_view text) {
    hash.update(std::to_string(text.size()) + ":");
    hash.update(text);
  };
  auto list = [&](const std::vector<std::string>& items) {
    field(std::to_string(items.size()));
    for (const std::string& item : items) field(item);
  };
  field(kKeyFormat);
  field(version());
  field(request.arch);
  field(request.code);
  list(request.options);
  list(request.entries);
  return hash.hex_digest();
}

CompiledKernel NvrtcCompiler::compile(const CompileRequest& request) const {
  const auto start = std::chrono::steady_clock::now();
  CompiledKernel out;
  out.key = cache_key(request);

  Program program(request.code);
  for (const std::string& entry : request.entries) {
    check(nvrtcAddNameExpression(program.get(), entry.c_str()), "adding a name expression");
  }
  std::vector<std::string> options = fixed_options(request.arch);
  options.insert(options.end(), request.options.begin(), request.options.end());
  std::vector<const char*> option_pointers;
  for (const std::string& option : options) option_pointers.push_back(option.c_str());

  const nvrtcResult result = nvrtcCompileProgram(
      program.get(), static_cast<int>(option_pointers.size()), option_pointers.data());
  out.log = program.log();
  // An unknown architecture or option is as much the request's fault as a syntax error.
  if (result == NVRTC_ERROR_COMPILATION || result == NVRTC_ERROR_INVALID_OPTION) {
    out.compile_seconds = seconds_since(start);
    return out;
  }
  check(result, "compiling");

  out.ptx = program.ptx();
  if (produces_cubin(request.arch)) out.cubin = program.cubin();
  const auto usage = parse_ptxas_info(out.log);
  for (const std::string& entry : request.entries) {
    const char* lowered = nullptr;
    check(nvrtcGetLoweredName(program.get(), entry.c_str(), &lowered), "lowering a name");
    out.lowered_names[entry] = lowered;
    auto found = usage.find(lowered);
    if (found != usage.end()) out.usage[entry] = found->second;
  }
  out.ok = true;
  out.compile_seconds = seconds_since(start);
  return out;
}

}  // namespace ktune
