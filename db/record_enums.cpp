#include "db/record_enums.h"

#include <array>
#include <utility>

#include "workload/input_error.h"

namespace ktune {

namespace {

template <typename Enum, size_t N>
using Names = std::array<std::pair<Enum, const char*>, N>;

constexpr Names<JobState, 5> kJobStates{{{JobState::Queued, "queued"},
                                         {JobState::Running, "running"},
                                         {JobState::Done, "done"},
                                         {JobState::Failed, "failed"},
                                         {JobState::Cancelled, "cancelled"}}};

constexpr Names<MeasurementStatus, 6> kMeasurementStatuses{
    {{MeasurementStatus::Ok, "ok"},
     {MeasurementStatus::CompileError, "compile_error"},
     {MeasurementStatus::VerifyFailed, "verify_failed"},
     {MeasurementStatus::Fault, "fault"},
     {MeasurementStatus::Timeout, "timeout"},
     {MeasurementStatus::Skipped, "skipped"}}};

constexpr Names<ResultSource, 2> kResultSources{
    {{ResultSource::Model, "model"}, {ResultSource::Measured, "measured"}}};

template <typename Enum, size_t N>
const char* name_of(const Names<Enum, N>& names, Enum value) {
  for (const auto& [e, name] : names) {
    if (e == value) return name;
  }
  return "?";
}

template <typename Enum, size_t N>
Enum parse(const Names<Enum, N>& names, const std::string& text, const char* what) {
  std::string accepted;
  for (const auto& [e, name] : names) {
    if (text == name) return e;
    accepted += accepted.empty() ? "" : ", ";
    accepted += name;
  }
  throw InputError("unknown " + std::string(what) + " '" + text + "' (expected one of " + accepted +
                   ")");
}

}  // namespace

const char* to_string(JobState s) { return name_of(kJobStates, s); }
const char* to_string(MeasurementStatus s) { return name_of(kMeasurementStatuses, s); }
const char* to_string(ResultSource s) { return name_of(kResultSources, s); }

JobState job_state_from_string(const std::string& s) { return parse(kJobStates, s, "job state"); }

MeasurementStatus measurement_status_from_string(const std::string& s) {
  return parse(kMeasurementStatuses, s, "measurement status");
}

ResultSource result_source_from_string(const std::string& s) {
  return parse(kResultSources, s, "result source");
}

bool is_finished(JobState s) {
  return s == JobState::Done || s == JobState::Failed || s == JobState::Cancelled;
}

}  // namespace ktune
