#pragma once
// Which columns make up each record, and how a row of them becomes the record. A query selects
// `<record>_columns(alias)` and hands the row to `read_<record>`; joins select several lists and
// read them in the same order.
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "db/damaged_rows.h"
#include "db/records.h"
#include "db/sql_values.h"

namespace ktune {

std::string workload_columns(const std::string& alias);
std::string workload_vector_columns(const std::string& alias);
std::string upload_columns(const std::string& alias);
std::string device_columns(const std::string& alias);
std::string compiled_kernel_columns(const std::string& alias);
std::string job_columns(const std::string& alias);
std::string candidate_columns(const std::string& alias);
std::string measurement_columns(const std::string& alias);
std::string baseline_columns(const std::string& alias);
std::string result_columns(const std::string& alias);

WorkloadRecord read_workload(RowCursor& row);
WorkloadVector read_workload_vector(RowCursor& row);
UploadRecord read_upload(RowCursor& row);
DeviceRecord read_device(RowCursor& row);
CompiledKernelRecord read_compiled_kernel(RowCursor& row);
JobRecord read_job(RowCursor& row);
CandidateRecord read_candidate(RowCursor& row);
MeasurementRecord read_measurement(RowCursor& row);
BaselineRecord read_baseline(RowCursor& row);
ResultRecord read_result(RowCursor& row);

// Every row of a bound statement, each turned into a record by read(RowCursor&).
// A row whose stored values do not read back is skipped and counted (db/damaged_rows.h):
// one damaged answer must not hide every other one, nor stop the daemon from starting.
template <typename Read>
auto read_all(SQLite::Statement& statement, Read read) {
  std::vector<std::invoke_result_t<Read, RowCursor&>> records;
  while (statement.executeStep()) {
    RowCursor row(statement);
    try {
      records.push_back(read(row));
    } catch (const DamagedValue& e) {
      note_damaged_row(e.what());
    }
  }
  return records;
}

// The first row of a bound statement that reads back, if there is one.
template <typename Read>
auto read_first(SQLite::Statement& statement, Read read) {
  std::optional<std::invoke_result_t<Read, RowCursor&>> record;
  while (!record && statement.executeStep()) {
    RowCursor row(statement);
    try {
      record = read(row);
    } catch (const DamagedValue& e) {
      note_damaged_row(e.what());
    }
  }
  return record;
}

}  // namespace ktune
