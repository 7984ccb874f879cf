#pragma once
// From an answer to a binary for this device: which configuration to run, the compile
// request for it, and the compiled kernel from the process's cache over the disk store.
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "gpu/compiled_kernel.h"
#include "kernels/kernel_family.h"

namespace ktune {

// The answer's configuration, validated against this client's family; nothing when it is
// not one of its space (an answer of other templates than this client's).
std::optional<Config> answer_config(const nlohmann::json& answer, const KernelFamily& family, const Problem& problem);

// The answer's own source, entries and options (its architecture replaced by `arch`) when
// they are what this client's family renders for `config` (same templates, same problem,
// same configuration); otherwise the family's rendering of `config`, so that the source
// always takes the arguments the local plan passes.
CompileRequest compile_request_for(const nlohmann::json& answer, const KernelFamily& family, const Problem& problem,
                                   const Config& config, const std::string& arch);

// Compiled once per process and request; with a cache directory, once per machine: the
// binary is saved under it (clients/cpp/disk_compile_store.h) and loaded by later processes.
std::shared_ptr<const CompiledKernel> compiled_kernel(const CompileRequest& request, const std::string& cache_dir);

}  // namespace ktune
