#include "db/compiled_kernel_repository.h"

#include "db/record_rows.h"

namespace ktune {

std::optional<CompiledKernelRecord> CompiledKernelRepository::load(const std::string& key) {
  return db_.read([&](SQLite::Database& c) {
    SQLite::Statement q(
        c, "SELECT " + compiled_kernel_columns("k") + " FROM compiled_kernels k WHERE k.key = ?1");
    bind_all(q, key);
    return read_first(q, read_compiled_kernel);
  });
}

void CompiledKernelRepository::save(const CompiledKernelRecord& kernel) {
  db_.write([&](SQLite::Database& c) {
    execute(c,
            "INSERT OR REPLACE INTO compiled_kernels (key, arch, ok, ptx, cubin, lowered_names,"
            " usage, log, compile_seconds) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            kernel.key, kernel.arch, kernel.ok, kernel.ptx, Blob{kernel.cubin},
            kernel.lowered_names, kernel.usage, kernel.log, kernel.compile_seconds);
  });
}

}  // namespace ktune
