// Writes the graph ktuned tunes on for a workload (a Matrix Market file or a generator spec, read
// as the graph families read it) as a directed, weighted Matrix Market file, every edge on its
// own line with SSSP's generated weight: so that Gunrock, which reads files only and takes a
// pattern file's weights as 1, runs the same graph and the same SSSP as ktune. It prints the
// vertex of most out-edges ("busiest vertex"): a source for graphs whose vertex 0 may be
// isolated (R-MAT).
//
//   graph_export (--file G.mtx[.gz] | --generator JSON) --out G.mtx [--max-weight 64] [--max-nnz N]
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kernels/sssp/sssp_weights.h"
#include "server/workload_resolver.h"
#include "workload/input_error.h"

namespace {

void append_int(std::string& line, int64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  line.append(buf, r.ptr);
}

int usage() {
  std::cerr << "usage: graph_export (--file G.mtx[.gz] | --generator JSON) --out G.mtx [--max-weight N] [--max-nnz N]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string file, generator, out;
  int64_t max_weight = 64;
  ktune::ReadLimits limits;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--file") file = value;
    else if (flag == "--generator") generator = value;
    else if (flag == "--out") out = value;
    else if (flag == "--max-weight") max_weight = std::stoll(value);
    else if (flag == "--max-nnz") limits.max_entries = std::stoll(value);
    else return usage();
  }
  if (out.empty() || file.empty() == generator.empty()) return usage();
  try {
    namespace fs = std::filesystem;
    const fs::path dir = file.empty() ? fs::current_path() : fs::absolute(file).parent_path();
    ktune::WorkloadResolver resolver(dir, limits, [](const std::string& id) -> std::string {
      throw ktune::NotFoundError("no upload '" + id + "'");
    });
    const nlohmann::json spec = file.empty() ? nlohmann::json::parse(generator)
                                             : nlohmann::json{{"path", fs::path(file).filename().string()}};
    const ktune::CsrF64 g = resolver.load(spec, ktune::WorkloadKind::Graph).workload.matrix;
    std::FILE* f = std::fopen(out.c_str(), "wb");
    if (!f) throw std::runtime_error("cannot write " + out);
    std::string text = "%%MatrixMarket matrix coordinate real general\n";
    text += "% written by ktune's graph_export; weights as SSSP's \"generated\" with max_weight " +
            std::to_string(max_weight) + "\n";
    append_int(text, g.rows), text += ' ', append_int(text, g.cols), text += ' ', append_int(text, g.nnz());
    text += '\n';
    int32_t busiest = 0;
    for (int32_t u = 0; u < g.rows; ++u) {
      if (g.row_ptr[u + 1] - g.row_ptr[u] > g.row_ptr[busiest + 1] - g.row_ptr[busiest]) busiest = u;
      for (int32_t k = g.row_ptr[u]; k < g.row_ptr[u + 1]; ++k) {
        const int32_t v = g.col_idx[static_cast<size_t>(k)];
        append_int(text, u + 1), text += ' ', append_int(text, v + 1), text += ' ';
        append_int(text, ktune::generated_weight(u, v, max_weight)), text += '\n';
      }
      if (text.size() > (1u << 22)) std::fwrite(text.data(), 1, text.size(), f), text.clear();
    }
    std::fwrite(text.data(), 1, text.size(), f);
    if (std::fclose(f) != 0) throw std::runtime_error("writing " + out + " failed");
    std::cout << out << ": " << g.rows << " vertices, " << g.nnz() << " edges, busiest vertex " << busiest << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "graph_export: " << e.what() << "\n";
    return 1;
  }
}
