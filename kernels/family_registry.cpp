#include "kernels/kernel_family.h"
#include "workload/input_error.h"
#include "workload/sha256.h"

// The registration of every family, one name each: kernels/<name>/ defines
// std::unique_ptr<KernelFamily> make_<name>_family().
#define KTUNE_FAMILIES(FAMILY) FAMILY(spmv) FAMILY(sddmm) FAMILY(spmm) FAMILY(bfs) FAMILY(cc) FAMILY(pagerank) FAMILY(gemm) FAMILY(sssp) FAMILY(contraction)

namespace ktune {

#define KTUNE_DECLARE_FAMILY(name) std::unique_ptr<KernelFamily> make_##name##_family();
KTUNE_FAMILIES(KTUNE_DECLARE_FAMILY)

std::vector<Precision> KernelFamily::precisions() const {
  return {Precision::uniform(Dtype::F32), Precision::uniform(Dtype::F64)};
}

Verdict KernelFamily::verify(const Problem& p, const PlanOutput& output, std::string_view got,
                             const std::vector<double>& expected, const CheckData& data) const {
  return check_reduction_output(got, output.dtype, expected, [](size_t) { return 1.0; });
}

LaunchPlan KernelFamily::vendor_plan(const Workload& w, const Problem& p) const {
  SpaceRng rng(0);
  return prepare(w, p, space(p).random_valid(rng));
}

std::string family_version(const KernelFamily& family) {
  Sha256 h;
  for (std::string_view t : family.templates()) {
    h.update(t.data(), t.size());
    h.update("\0", 1);
  }
  return h.hex_digest();
}

Problem make_problem(const KernelFamily& family, const nlohmann::json& params, const Precision& precision) {
  Problem p;
  p.params = family.problem_schema().validate(params);
  p.precision = precision;
  const std::vector<Precision> accepted = family.precisions();
  for (const Precision& a : accepted)
    if (a == precision) return p;
  // One type names the family's only precision with that input, when it has no uniform one:
  // "bf16" is GEMM's bf16:f32:f32 (the dtype the requests and the CLI give).
  if (precision.is_uniform()) {
    const Precision* only = nullptr;
    int matches = 0;
    for (const Precision& a : accepted)
      if (a.input == precision.input) only = &a, ++matches;
    if (matches == 1) {
      p.precision = *only;
      return p;
    }
  }
  std::string list;
  for (const Precision& a : accepted) list += (list.empty() ? "" : ", ") + to_string(a);
  throw InputError("kernel '" + family.name() + "' does not compute in dtype " + to_string(precision) + " (it takes " +
                   list + ")");
}

const std::vector<std::unique_ptr<KernelFamily>>& all_families() {
  static const std::vector<std::unique_ptr<KernelFamily>> families = [] {
    std::vector<std::unique_ptr<KernelFamily>> list;
#define KTUNE_ADD_FAMILY(name) list.push_back(make_##name##_family());
    KTUNE_FAMILIES(KTUNE_ADD_FAMILY)
    return list;
  }();
  return families;
}

const KernelFamily* find_family(const std::string& name) {
  for (const auto& family : all_families()) {
    if (family->name() == name) return family.get();
  }
  return nullptr;
}

}  // namespace ktune
