#include "db/damaged_rows.h"

#include <mutex>

namespace ktune {
namespace {
std::mutex mutex;
DamagedRows seen;
}  // namespace

void note_damaged_row(const std::string& what) {
  std::lock_guard<std::mutex> lock(mutex);
  if (seen.count++ == 0) seen.first = what;
}

DamagedRows damaged_rows_seen() {
  std::lock_guard<std::mutex> lock(mutex);
  return seen;
}

}  // namespace ktune
