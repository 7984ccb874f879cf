#pragma once
// Turns the "workload" object of a tune request into a loaded matrix: an upload id, a path
// inside the data dir (never outside it), or a generator spec. What the family works on
// decides the rest: a graph family reads any of them as a graph; a dense family's workload is
// its problem's shape, so its request names none.
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "workload/read_limits.h"
#include "workload/workload.h"

namespace ktune {

struct ResolvedWorkload {
  Workload workload;
  std::string description;  // "upload:<id>", "path:<rel>", "rmat(scale=...)"
};

class WorkloadResolver {
 public:
  // `upload_content` returns the stored (gzip) Matrix Market bytes of an upload, or throws NotFoundError.
  WorkloadResolver(std::filesystem::path data_dir, ReadLimits limits,
                   std::function<std::string(const std::string&)> upload_content);

  // Validates the spec's form for a family of `kind` without loading anything (throws
  // InputError/ForbiddenError).
  void validate(const nlohmann::json& spec, WorkloadKind kind) const;
  // A canonical text of the spec: equal for requests that name the same workload.
  std::string canonical(const nlohmann::json& spec, WorkloadKind kind) const;
  // For a sparse family, edge lists and graph generators load as graphs (their signatures
  // carry the traversal features); for a graph family everything does. Without values the
  // matrix keeps none (signatures do not hash them): a traversal of a large graph reads only
  // its edges, and its values would be the largest array in memory.
  ResolvedWorkload load(const nlohmann::json& spec, WorkloadKind kind, bool with_values = true) const;
  // The file a relative path names, after refusing absolute paths and escapes (ForbiddenError).
  std::filesystem::path inside_data_dir(const std::string& relative) const;

 private:
  std::filesystem::path data_dir_;
  ReadLimits limits_;
  std::function<std::string(const std::string&)> upload_content_;
};

}  // namespace ktune
