// What the C++ client (clients/cpp) adds to a program, against a running ktuned:
//   client_overhead --server HOST:PORT MATRIX.mtx[.gz] [--runs N]
// 1. makes sure the matrix's SpMV answer is stored (a tune through the client, followed to
//    its end), then times TunedKernel::open on it N times (signature + exact lookup; target
//    ≤ 1 ms for a cached answer), with its parts: the signature alone, the lookup round trip;
// 2. starts itself twice as a fresh process with an empty, then a filled, kernel cache, and
//    times the way to a runnable kernel: NVRTC the first time, the disk cache the second. With a
//    GPU that is open + first launch (synchronised); without one, open + compile for sm_90.
// Prints one JSON object.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <thread>

#include "clients/cpp/answer_kernel.h"
#include "clients/cpp/device_session.h"
#include "clients/cli_args.h"
#include "clients/ktune_client.h"
#include "ktune/tuned_kernel.h"
#include "workload/matrix_market.h"
#include "workload/signature.h"

namespace ktune {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <typename F>
double median_ms(int runs, F f) {
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    const auto start = Clock::now();
    f();
    times.push_back(ms_since(start));
  }
  return median(times);
}

// Part 2, in a process of its own: from nothing to a kernel that ran (or compiled).
int first_launch(const std::string& server, const std::string& path, const std::string& cache) {
  const auto start = Clock::now();
  ClientOptions options;
  options.server = server;
  options.cache_dir = cache;
  TunedKernel spmv = TunedKernel::open({"spmv", "f32", {}}, read_matrix_market_file(path, ReadLimits{}), options);
  const double open_ms = ms_since(start);
  nlohmann::json out = {{"open_ms", open_ms}, {"match", spmv.match()}};
  if (probe_device(0).present) {
    DeviceSession session(0);
    session.make_current();
    const CsrF64 m = read_matrix_market_file(path, ReadLimits{});
    DeviceMemory x(session.cu(), static_cast<size_t>(m.cols) * 4), y(session.cu(), static_cast<size_t>(m.rows) * 4);
    const auto launch_start = Clock::now();
    spmv.launch({{"x", x.get()}, {"y", y.get()}});
    session.cu().check(session.cu().ctx_synchronize(), "the first launch");
    out["first_launch_ms"] = ms_since(launch_start);
  } else {
    const KernelFamily& family = *find_family("spmv");
    const Problem problem = Problem::of(Dtype::F32);
    const Config config = answer_config(spmv.answer(), family, problem).value_or(family.space(problem).first_valid());
    const auto compile_start = Clock::now();
    compiled_kernel(compile_request_for(spmv.answer(), family, problem, config, "sm_90"), cache);
    out["compile_ms"] = ms_since(compile_start);
  }
  out["total_ms"] = ms_since(start);
  std::cout << out.dump() << std::endl;
  return 0;
}

nlohmann::json child(const std::string& server, const std::string& path, const std::string& cache) {
  const std::string command = "'" + std::filesystem::read_symlink("/proc/self/exe").string() + "' --first-launch --server " +
                              server + " '" + path + "' --cache '" + cache + "'";
  FILE* pipe = ::popen(command.c_str(), "r");
  std::string text;
  char buffer[4096];
  while (pipe && std::fgets(buffer, sizeof buffer, pipe)) text += buffer;
  if (!pipe || ::pclose(pipe) != 0) throw std::runtime_error("the child process failed: " + text);
  return nlohmann::json::parse(text);
}

int run(int argc, char** argv) {
  std::string server, path, cache;
  int runs = 200;
  bool first = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--server" && i + 1 < argc) server = argv[++i];
    else if (a == "--runs" && i + 1 < argc) runs = std::stoi(argv[++i]);
    else if (a == "--cache" && i + 1 < argc) cache = argv[++i];
    else if (a == "--first-launch") first = true;
    else path = a;
  }
  if (server.empty() || path.empty()) {
    std::cerr << "usage: client_overhead --server HOST:PORT MATRIX.mtx[.gz] [--runs N]\n";
    return 2;
  }
  if (first) return first_launch(server, path, cache);

  const CsrF64 m = read_matrix_market_file(path, ReadLimits{});
  ClientOptions options;
  options.server = server;
  options.cache_dir = "";  // part 1 times the lookup alone
  options.tune_budget = {{"measurements", 32}};
  TunedKernel spmv = TunedKernel::open({"spmv", "f32", {}}, m, options);
  const ServerAddress address = parse_server_address(server);
  KtuneClient client(address.host, address.port);
  if (spmv.match() != "exact") {
    // open() submitted the tune; the answer is stored when it ends.
    for (int i = 0; i < 6000 && spmv.match() != "exact"; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      spmv = TunedKernel::open({"spmv", "f32", {}}, m, options);
    }
    if (spmv.match() != "exact") throw std::runtime_error("the tune of " + path + " did not finish in 10 minutes");
  }
  const std::string signature = spmv.signature();
  nlohmann::json out;
  out["matrix"] = path;
  out["nnz"] = m.nnz();
  out["answer_source"] = spmv.answer().value("source", "");
  out["open_exact_ms"] = median_ms(runs, [&] { TunedKernel::open({"spmv", "f32", {}}, m, options); });
  out["signature_ms"] = median_ms(runs, [&] { exact_signature(m, WorkloadKind::SparseMatrix); });
  out["lookup_round_trip_ms"] = median_ms(runs, [&] { client.lookup("spmv", signature, "f32"); });
  out["runs"] = runs;
  const std::string dir = (std::filesystem::temp_directory_path() / ("ktune-overhead-" + std::to_string(::getpid()))).string();
  std::filesystem::remove_all(dir);
  out["second_process"] = {{"empty_cache", child(server, path, dir)}, {"filled_cache", child(server, path, dir)}};
  std::filesystem::remove_all(dir);
  std::cout << out.dump(2) << std::endl;
  return 0;
}

}  // namespace
}  // namespace ktune

int main(int argc, char** argv) {
  try {
    return ktune::run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "client_overhead: " << e.what() << "\n";
    return 1;
  }
}
