#pragma once
// Rows skipped because a stored value did not read back: counted for /metrics and the log.
#include <cstdint>
#include <string>

namespace ktune {

void note_damaged_row(const std::string& what);

struct DamagedRows {
  int64_t count = 0;
  std::string first;  // what the first one was, e.g. "table 'results', column 'answer' holds ..."
};
DamagedRows damaged_rows_seen();

}  // namespace ktune
