#include "gpu/worker_process.h"

#include <gtest/gtest.h>

#include <chrono>

#include "tests/gpu_nodevice/fake_worker.h"

namespace ktune {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(WorkerProcess, TalksThroughStdinAndStdout) {
  const FakeWorker echo("exec cat");  // every message comes straight back
  WorkerProcess worker(echo.path());
  std::string payload(100000, '\0');
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<char>(i * 7);
  worker.stream().send(MessageType::Upload, {{"key", "k"}}, payload, 5.0);
  const WorkerMessage back = worker.stream().receive(5.0);
  EXPECT_EQ(back.type, MessageType::Upload);
  EXPECT_EQ(back.payload, payload);
}

TEST(WorkerProcess, SilentWorkerTimesOutAndIsKilledPromptly) {
  const FakeWorker silent("exec sleep 60");
  WorkerProcess worker(silent.path());
  EXPECT_THROW(
      {
        try {
          worker.stream().receive(0.2);
        } catch (const WorkerError& e) {
          EXPECT_EQ(e.kind, WorkerError::Kind::Timeout);
          throw;
        }
      },
      WorkerError);
  const auto start = std::chrono::steady_clock::now();
  worker.kill();
  EXPECT_LT(seconds_since(start), 2.0);
  EXPECT_NE(worker.exit_description().find("signal 9"), std::string::npos);
}

TEST(WorkerProcess, DeadWorkerClosesTheStreamAndSaysHowItEnded) {
  const FakeWorker dies("exit 3");
  WorkerProcess worker(dies.path());
  try {
    worker.stream().receive(5.0);
    ADD_FAILURE() << "no error";
  } catch (const WorkerError& e) {
    EXPECT_EQ(e.kind, WorkerError::Kind::Closed);
  }
  EXPECT_EQ(worker.exit_description(), "exited with status 3");
}

TEST(WorkerProcess, CrashIsReportedWithItsSignal) {
  const FakeWorker crashes("kill -s SEGV $$");
  WorkerProcess worker(crashes.path());
  EXPECT_THROW(worker.stream().receive(5.0), WorkerError);
  EXPECT_NE(worker.exit_description().find("signal 11"), std::string::npos);
}

TEST(WorkerProcess, MissingProgramThrows) {
  try {
    WorkerProcess worker("no-such-directory/ktune-measure-worker");
    ADD_FAILURE() << "started";
  } catch (const WorkerError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot start"), std::string::npos) << e.what();
  }
}

TEST(WorkerProcess, DestructorEndsAWorkerThatIgnoresEndOfInput) {
  const FakeWorker stubborn("trap '' TERM; exec sleep 60");
  const auto start = std::chrono::steady_clock::now();
  { WorkerProcess worker(stubborn.path()); }
  EXPECT_LT(seconds_since(start), 5.0);
}

}  // namespace
}  // namespace ktune
