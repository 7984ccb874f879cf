#include "server/workload_resolver.h"

#include "workload/edge_list.h"
#include "workload/generator_spec.h"
#include "workload/matrix_market.h"
#include "workload/text_source.h"
#include "workload/input_error.h"

namespace ktune {
namespace fs = std::filesystem;

namespace {
bool is_edge_list(const fs::path& p) {
  std::string name = p.filename().string();
  if (name.size() > 3 && name.compare(name.size() - 3, 3, ".gz") == 0) name.resize(name.size() - 3);
  for (const char* ext : {".el", ".txt", ".edges"})
    if (name.size() > std::char_traits<char>::length(ext) &&
        name.compare(name.size() - std::char_traits<char>::length(ext), std::string::npos, ext) == 0)
      return true;
  return false;
}
}  // namespace

WorkloadResolver::WorkloadResolver(fs::path data_dir, ReadLimits limits,
                                   std::function<std::string(const std::string&)> upload_content)
    : data_dir_(fs::weakly_canonical(fs::absolute(data_dir))),
      limits_(limits),
      upload_content_(std::move(upload_content)) {}

fs::path WorkloadResolver::inside_data_dir(const std::string& relative) const {
  if (relative.empty()) throw InputError("workload.path is empty");
  // The operating system would cut a name at a NUL and refuse one past its limits with an
  // error that reads like ktune's own.
  if (relative.find('\0') != std::string::npos) throw InputError("workload.path holds a NUL character");
  constexpr size_t kMaxPath = 4095, kMaxName = 255;
  if (relative.size() > kMaxPath)
    throw InputError("workload.path has " + std::to_string(relative.size()) + " characters, more than " +
                     std::to_string(kMaxPath));
  const fs::path requested(relative);
  for (const fs::path& part : requested)
    if (part.native().size() > kMaxName)
      throw InputError("workload.path has a name of " + std::to_string(part.native().size()) +
                       " characters, more than " + std::to_string(kMaxName));
  if (requested.is_absolute()) throw ForbiddenError("workload.path must be relative to the data dir: '" + relative + "'");
  // Resolve symbolic links too, so a link inside the data dir cannot point outside it. The
  // data dir's own path counts against the system's limits too: a relative path within them
  // may still make a full path too long (or meet a link loop), which is the request's fault.
  std::error_code error;
  const fs::path full = fs::weakly_canonical(data_dir_ / requested, error);
  if (error) throw InputError("workload.path cannot be resolved in the data dir: " + error.message());
  auto [end, _] = std::mismatch(data_dir_.begin(), data_dir_.end(), full.begin(), full.end());
  if (end != data_dir_.end()) throw ForbiddenError("workload.path escapes the data dir: '" + relative + "'");
  return full;
}

void WorkloadResolver::validate(const nlohmann::json& spec, WorkloadKind kind) const {
  if (kind == WorkloadKind::Dense) {
    if (!spec.is_null())
      throw InputError("a dense family's workload is its problem's shape: send no 'workload'");
    return;
  }
  if (!spec.is_object()) throw InputError("'workload' must be an object: {\"upload\"|\"path\"|\"generator\": ...}");
  const int forms = int(spec.contains("upload")) + int(spec.contains("path")) + int(spec.contains("generator"));
  if (forms != 1) throw InputError("'workload' needs exactly one of \"upload\", \"path\" or \"generator\"");
  if (spec.contains("upload") && !spec["upload"].is_string()) throw InputError("workload.upload must be a string id");
  if (spec.contains("path")) {
    if (!spec["path"].is_string()) throw InputError("workload.path must be a string");
    const fs::path file = inside_data_dir(spec["path"].get<std::string>());
    std::error_code error;
    if (!fs::is_regular_file(file, error))
      throw NotFoundError("no file '" + spec["path"].get<std::string>() + "' in the data dir");
  }
  if (spec.contains("generator")) check_spec(spec, limits_);
}

std::string WorkloadResolver::canonical(const nlohmann::json& spec, WorkloadKind kind) const {
  if (kind == WorkloadKind::Dense) return "dense";
  if (spec.contains("upload")) return "upload:" + spec["upload"].get<std::string>();
  if (spec.contains("path")) {
    const fs::path file = inside_data_dir(spec["path"].get<std::string>());
    std::error_code ec;
    const auto stamp = fs::last_write_time(file, ec).time_since_epoch().count();
    return "path:" + file.lexically_relative(data_dir_).string() + "@" + std::to_string(stamp);
  }
  return describe_spec(spec);
}

ResolvedWorkload WorkloadResolver::load(const nlohmann::json& spec, WorkloadKind kind, bool with_values) const {
  validate(spec, kind);
  ResolvedWorkload out;
  out.description = canonical(spec, kind);
  if (kind == WorkloadKind::Dense) {
    out.workload.kind = WorkloadKind::Dense;
    return out;
  }
  if (spec.contains("upload")) {
    const std::string stored = upload_content_(spec["upload"].get<std::string>());
    out.workload.matrix = parse_matrix_market(std::string_view(stored), limits_);
  } else if (spec.contains("path")) {
    const fs::path file = inside_data_dir(spec["path"].get<std::string>());
    if (is_edge_list(file)) {
      out.workload.kind = WorkloadKind::Graph;
      out.workload.matrix = parse_edge_list(*text_from_file(file.string()), limits_, false);
    } else {
      out.workload.matrix = read_matrix_market_file(file.string(), limits_);
    }
  } else {
    out.workload.matrix = generate_from_spec(spec, limits_, with_values);
    const std::string g = spec["generator"].is_string() ? spec["generator"].get<std::string>() : "";
    if (g == "rmat") out.workload.kind = WorkloadKind::Graph;
  }
  if (kind == WorkloadKind::Graph) out.workload.kind = WorkloadKind::Graph;
  if (!with_values) out.workload.matrix.values = {};
  return out;
}

}  // namespace ktune
