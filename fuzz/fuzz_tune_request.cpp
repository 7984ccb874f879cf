// The JSON path of POST /v1/tune: body, tune fields, then the workload's validation and
// canonical text, against a data dir holding one small .mtx file; error messages built
// from the input must serialise for a client. An InputError is the answer to bad input;
// anything else escaping is a bug.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "fuzz_limits.h"
#include "server/json_body.h"
#include "server/tune_request.h"
#include "server/workload_resolver.h"
#include "workload/input_error.h"

namespace {

namespace fs = std::filesystem;

// The data dir, holding m.mtx and sub/e.el. libFuzzer ends without running atexit handlers,
// so it has one fixed name that every run reuses; files are renamed into place, so that runs
// side by side never read one half written.
const fs::path& data_dir() {
  static const fs::path dir = [] {
    const fs::path d = fs::temp_directory_path() / "ktune-fuzz-tune-request";
    fs::create_directories(d / "sub");
    auto put = [&](const fs::path& name, const char* text) {
      const fs::path partial = d / (name.filename().string() + "." + std::to_string(getpid()));
      std::ofstream(partial) << text;
      fs::rename(partial, d / name);
    };
    put("m.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1.5\n2 2 2.5\n");
    put("sub/e.el", "0 1\n1 2\n");
    return d;
  }();
  return dir;
}

void must_serialise(const nlohmann::json& j) {
  if (ktune::dump_for_client(j).empty()) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static const ktune::WorkloadResolver resolver(data_dir(), ktune::fuzz_limits(int64_t{1} << 14),
                                                [](const std::string& id) -> std::string {
                                                  throw ktune::NotFoundError("no upload '" + id + "'");
                                                });
  // Raw input echoed in an error, as the server does with names and paths.
  must_serialise({{"error", "bad request: " + std::string(text)}});
  try {
    const nlohmann::json request = ktune::parse_json_object(text, "the request body");
    must_serialise(request);
    const ktune::TuneFields fields = ktune::parse_tune_request(request);
    if (!fields.family) __builtin_trap();
    resolver.validate(fields.workload, fields.family->workload_kind());
    const std::string canonical = resolver.canonical(fields.workload, fields.family->workload_kind());
    if (canonical.empty()) __builtin_trap();
  } catch (const ktune::InputError& e) {
    must_serialise({{"error", e.what()}});
  }
  return 0;
}
