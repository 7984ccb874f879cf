// Times what every uploaded matrix goes through: its signature (100 M entries) and Matrix
// Market parsing, plain and gzip (20 M entries); also the two large generators the
// benchmarks rely on. Human-readable lines, then one JSON object on the last line.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "workload/generators.h"
#include "workload/gzip.h"
#include "workload/matrix_market.h"
#include "workload/signature.h"

namespace {

using ktune::CsrF64;

double seconds_of(const std::function<void()>& run) {
  const auto start = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double best_of_3(const std::function<void()>& run) {
  double best = seconds_of(run);
  for (int i = 1; i < 3; ++i) best = std::min(best, seconds_of(run));
  return best;
}

}  // namespace

int main() {
  nlohmann::json result;
  CsrF64 m;

  result["generate_stencil2d_4096_s"] = seconds_of([&] { m = ktune::generate_stencil_2d(4096); });
  std::printf("stencil2d(n=4096): %lld nnz generated in %.2f s\n", static_cast<long long>(m.nnz()),
              result["generate_stencil2d_4096_s"].get<double>());
  result["generate_rmat_22_16_s"] = seconds_of([&] { m = ktune::generate_rmat(22, 16, 1); });
  std::printf("rmat(scale=22,edge_factor=16): %lld nnz generated in %.2f s\n",
              static_cast<long long>(m.nnz()), result["generate_rmat_22_16_s"].get<double>());

  const int32_t rows = 12'500'000;
  result["generate_uniform_100m_s"] =
      seconds_of([&] { m = ktune::generate_uniform(rows, rows, 8, 1); });
  const auto nnz = static_cast<double>(m.nnz());
  const double signature_s =
      best_of_3([&] { ktune::compute_signature(m, ktune::WorkloadKind::SparseMatrix); });
  result["signature_nnz"] = m.nnz();
  result["signature_s"] = signature_s;
  result["signature_nnz_per_s"] = nnz / signature_s;
  std::printf(
      "compute_signature, uniform 12.5M x 12.5M, 8 per row (%.0f nnz): %.3f s = %.1f M nnz/s\n",
      nnz, signature_s, nnz / signature_s / 1e6);

  m = ktune::generate_uniform(2'500'000, 2'500'000, 8, 2);
  std::string text;
  {
    std::ostringstream out;
    ktune::write_matrix_market(m, out);
    text = out.str();
  }
  const auto parse_nnz = static_cast<double>(m.nnz());
  const auto mb = static_cast<double>(text.size()) / 1e6;
  const double parse_s = best_of_3([&] { m = ktune::parse_matrix_market(text, {}); });
  result["parse_nnz"] = m.nnz();
  result["parse_text_mb"] = mb;
  result["parse_s"] = parse_s;
  result["parse_mb_per_s"] = mb / parse_s;
  result["parse_nnz_per_s"] = parse_nnz / parse_s;
  std::printf("parse_matrix_market, %.0f nnz, %.0f MB of text: %.3f s = %.0f MB/s, %.1f M nnz/s\n",
              parse_nnz, mb, parse_s, mb / parse_s, parse_nnz / parse_s / 1e6);

  const auto path = std::filesystem::temp_directory_path() / "ktune_signature_bench.mtx.gz";
  {
    const std::string packed = ktune::gzip_compress(text, 6);
    std::ofstream(path, std::ios::binary)
        .write(packed.data(), static_cast<std::streamsize>(packed.size()));
    result["gzip_mb"] = static_cast<double>(packed.size()) / 1e6;
  }
  text.clear();
  text.shrink_to_fit();
  const double file_s = best_of_3([&] { m = ktune::read_matrix_market_file(path.string(), {}); });
  std::filesystem::remove(path);
  result["read_gz_s"] = file_s;
  result["read_gz_mb_per_s"] = mb / file_s;
  result["read_gz_nnz_per_s"] = parse_nnz / file_s;
  std::printf(
      "read_matrix_market_file, the same as .mtx.gz (%.0f MB, level 6): %.3f s = %.0f MB/s of "
      "text, %.1f M nnz/s\n",
      result["gzip_mb"].get<double>(), file_s, mb / file_s, parse_nnz / file_s / 1e6);

  std::cout << result.dump() << std::endl;
  return 0;
}
