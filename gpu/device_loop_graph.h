#pragma once
// A plan's program as one CUDA graph whose loops are conditional while-nodes: the device tests
// each loop's counter itself (a one-thread kernel at the end of the body sets the node's
// condition), so a traversal of many levels costs no host round trip a level. A launch sized
// from a counter runs one wave of blocks (launch_plan.h: its kernel strides over the counter).
// Needs a driver with conditional nodes (CudaDriver::has_conditional_graphs, CUDA 12.4+).
#include <cstdint>
#include <functional>
#include <vector>

#include "gpu/cuda_resources.h"
#include "gpu/buffer_table.h"
#include "kernels/launch_plan.h"

namespace ktune {

// One kernel node: the function, its geometry and pointers to each argument's bytes (read
// while the node is added).
struct GraphKernel {
  CUfunction function = nullptr;
  Dim3 grid, block;
  Dim3 cluster;  // 1 x 1 x 1: no cluster
  uint32_t shared_bytes = 0;
  std::vector<void*> params;
};

class DeviceLoopGraph {
 public:
  // Builds and instantiates the graph; `kernel(i)` describes launch i of the plan. Throws
  // CudaError (or std::runtime_error) when the driver cannot build it.
  DeviceLoopGraph(const CudaDriver& cu, const std::vector<PlanOp>& program, const BufferTable& table,
                  const std::function<GraphKernel(size_t launch)>& kernel);
  DeviceLoopGraph(const DeviceLoopGraph&) = delete;
  DeviceLoopGraph& operator=(const DeviceLoopGraph&) = delete;
  ~DeviceLoopGraph();

  // Enqueues the whole program on `stream`.
  void launch(CUstream stream) const;

 private:
  CUgraphNode add(CUgraph graph, CUgraphNode after, CUgraphNodeParams& params);
  // `kernel` gives the node of each launch while the graph is built.
  using KernelOf = std::function<GraphKernel(size_t)>;
  CUgraphNode add_ops(CUgraph graph, const std::vector<PlanOp>& ops, CUgraphNode after, const KernelOf& kernel);
  CUgraphNode add_loop(CUgraph graph, const PlanOp& loop, CUgraphNode after, const KernelOf& kernel);
  void add_memset(CUgraph graph, CUgraphNode& after, CUdeviceptr address, uint32_t word, size_t words);

  const CudaDriver& cu_;
  const BufferTable& table_;
  CUcontext context_ = nullptr;
  CudaModule loop_test_;       // the kernel that ends each loop's body
  CUfunction loop_test_function_ = nullptr;
  DeviceMemory runs_;          // one word per loop: the iterations it has run
  size_t loops_added_ = 0;
  CUgraph graph_ = nullptr;
  CUgraphExec exec_ = nullptr;
};

}  // namespace ktune
