// HostMemory's undo: the emulator traces a launch's sampled blocks, undoes their writes, and lets
// the launch's twin run it whole from the state before them.
#include <gtest/gtest.h>

#include <cstring>

#include "kernels/device_buffers.h"
#include "model/interp/host_memory.h"
#include "workload/input_error.h"

namespace ktune::interp {
namespace {

LaunchPlan plan_with_buffers() {
  LaunchPlan plan;
  plan.buffers = {input_buffer("in", std::vector<int32_t>(5000, 7)), output_buffer("out", 3000, Dtype::I32)};
  return plan;
}

void store(HostMemory& memory, const std::string& buffer, uint64_t index, int32_t value) {
  std::memcpy(memory.write(memory.address_of(buffer) + index * 4, 4), &value, 4);
}

int32_t load(const HostMemory& memory, const std::string& buffer, uint64_t index) {
  int32_t v;
  std::memcpy(&v, memory.bytes_of(buffer).data() + index * 4, 4);
  return v;
}

TEST(HostMemoryUndo, PutsBackWhatWasWrittenSinceItBegan) {
  const LaunchPlan plan = plan_with_buffers();
  HostMemory memory(plan, HostMemory::Fill::Zero);
  store(memory, "out", 10, 1);  // before: kept
  memory.begin_undo();
  store(memory, "out", 10, 2);
  store(memory, "out", 10, 3);  // the same page twice: the first save stands
  store(memory, "out", 2999, 4);
  store(memory, "in", 4999, 5);  // an input, copied on its first write
  EXPECT_EQ(load(memory, "out", 10), 3);
  memory.undo();
  EXPECT_EQ(load(memory, "out", 10), 1);
  EXPECT_EQ(load(memory, "out", 2999), 0);
  EXPECT_EQ(load(memory, "in", 4999), 7);
  store(memory, "out", 10, 9);  // after: kept, nothing left to undo
  memory.undo();
  EXPECT_EQ(load(memory, "out", 10), 9);
}

TEST(HostMemoryUndo, ATwinWritesThroughTheBuffersByName) {
  const LaunchPlan plan = plan_with_buffers();
  HostMemory memory(plan, HostMemory::Fill::Zero);
  HostArray<int32_t> out(memory, "out");
  EXPECT_EQ(out.size(), 3000u);
  out.set(5, 42);
  EXPECT_EQ(load(memory, "out", 5), 42);
  EXPECT_THROW(out.set(3000, 1), InputError);
  EXPECT_THROW((void)out[-1], InputError);
  EXPECT_THROW(HostArray<int32_t>(memory, "absent"), NotFoundError);

  // An input read through a read-only array stays where the plan holds it (a graph's edges are
  // not copied for each emulation); written, it is copied first.
  const auto* held = reinterpret_cast<const char*>(plan.buffers[0].bytes.data());
  const HostArray<const int32_t> in(memory, "in");
  EXPECT_EQ(in[4999], 7);
  EXPECT_EQ(memory.bytes_of("in").data(), held);
  HostArray<int32_t>(memory, "in").set(0, 1);
  EXPECT_NE(memory.bytes_of("in").data(), held);
  EXPECT_EQ(load(memory, "in", 0), 1);
}

}  // namespace
}  // namespace ktune::interp
