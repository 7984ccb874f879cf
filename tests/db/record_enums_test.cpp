#include "db/record_enums.h"

#include <gtest/gtest.h>

#include "workload/input_error.h"

namespace ktune {
namespace {

TEST(RecordEnums, JobStatesRoundTripThroughTheirSchemaText) {
  const std::vector<std::pair<JobState, std::string>> all = {{JobState::Queued, "queued"},
                                                             {JobState::Running, "running"},
                                                             {JobState::Done, "done"},
                                                             {JobState::Failed, "failed"},
                                                             {JobState::Cancelled, "cancelled"}};
  for (const auto& [state, text] : all) {
    EXPECT_EQ(to_string(state), text);
    EXPECT_EQ(job_state_from_string(text), state);
  }
}

TEST(RecordEnums, MeasurementStatusesRoundTripThroughTheirSchemaText) {
  const std::vector<std::pair<MeasurementStatus, std::string>> all = {
      {MeasurementStatus::Ok, "ok"},
      {MeasurementStatus::CompileError, "compile_error"},
      {MeasurementStatus::VerifyFailed, "verify_failed"},
      {MeasurementStatus::Fault, "fault"},
      {MeasurementStatus::Timeout, "timeout"},
      {MeasurementStatus::Skipped, "skipped"}};
  for (const auto& [status, text] : all) {
    EXPECT_EQ(to_string(status), text);
    EXPECT_EQ(measurement_status_from_string(text), status);
  }
}

TEST(RecordEnums, ResultSourcesRoundTripThroughTheirSchemaText) {
  EXPECT_EQ(std::string(to_string(ResultSource::Model)), "model");
  EXPECT_EQ(std::string(to_string(ResultSource::Measured)), "measured");
  EXPECT_EQ(result_source_from_string("model"), ResultSource::Model);
  EXPECT_EQ(result_source_from_string("measured"), ResultSource::Measured);
}

TEST(RecordEnums, UnknownTextIsAnInputErrorListingTheAcceptedValues) {
  try {
    job_state_from_string("paused");
    FAIL() << "accepted an unknown job state";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("paused"), std::string::npos) << message;
    EXPECT_NE(message.find("queued, running, done, failed, cancelled"), std::string::npos)
        << message;
  }
  EXPECT_THROW(measurement_status_from_string("OK"), InputError);
  EXPECT_THROW(result_source_from_string(""), InputError);
}

TEST(RecordEnums, OnlyDoneFailedAndCancelledAreFinished) {
  EXPECT_FALSE(is_finished(JobState::Queued));
  EXPECT_FALSE(is_finished(JobState::Running));
  EXPECT_TRUE(is_finished(JobState::Done));
  EXPECT_TRUE(is_finished(JobState::Failed));
  EXPECT_TRUE(is_finished(JobState::Cancelled));
}

}  // namespace
}  // namespace ktune
