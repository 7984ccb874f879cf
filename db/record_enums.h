#pragma once
// The closed sets of values that the schema's CHECK constraints allow, with their stored text.
#include <string>

namespace ktune {

enum class JobState { Queued, Running, Done, Failed, Cancelled };
enum class MeasurementStatus { Ok, CompileError, VerifyFailed, Fault, Timeout, Skipped };
enum class ResultSource { Model, Measured };

const char* to_string(JobState s);
const char* to_string(MeasurementStatus s);
const char* to_string(ResultSource s);

// Throw InputError naming the accepted values (a state may come from a query parameter).
JobState job_state_from_string(const std::string& s);
MeasurementStatus measurement_status_from_string(const std::string& s);
ResultSource result_source_from_string(const std::string& s);

// Done, failed and cancelled are final.
bool is_finished(JobState s);

}  // namespace ktune
