#include "gpu/device_loop_graph.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace ktune {

namespace {

// The kernel that ends a loop's body: counts the iteration and keeps the while-node going
// while the loop's counter is not zero and the bound is not reached, the test the host loop
// makes (plan_runner.cpp). PTX from nvcc 13.0 (-arch=sm_90 -ptx) of
//   extern "C" __device__ void cudaGraphSetConditional(unsigned long long, unsigned);
//   extern "C" __global__ void ktune_loop_test(unsigned long long handle, const int* counter,
//                                              int* runs, int max_iterations) {
//     const int n = *runs + 1;
//     *runs = n;
//     cudaGraphSetConditional(handle, *counter != 0 && n < max_iterations);
//   }
// at the PTX version that introduced conditional nodes, so that the driver compiles it for
// whatever GPU it runs on and links cudaGraphSetConditional itself, as it does printf.
constexpr const char* kLoopTestPtx = R"(
.version 8.4
.target sm_90
.address_size 64
.extern .func cudaGraphSetConditional
(
	.param .b64 cudaGraphSetConditional_param_0,
	.param .b32 cudaGraphSetConditional_param_1
)
;
.visible .entry ktune_loop_test(
	.param .u64 ktune_loop_test_param_0,
	.param .u64 ktune_loop_test_param_1,
	.param .u64 ktune_loop_test_param_2,
	.param .u32 ktune_loop_test_param_3
)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<6>;
	ld.param.u64 	%rd1, [ktune_loop_test_param_0];
	ld.param.u64 	%rd2, [ktune_loop_test_param_1];
	ld.param.u64 	%rd3, [ktune_loop_test_param_2];
	ld.param.u32 	%r1, [ktune_loop_test_param_3];
	cvta.to.global.u64 	%rd4, %rd2;
	cvta.to.global.u64 	%rd5, %rd3;
	ld.global.u32 	%r2, [%rd5];
	add.s32 	%r3, %r2, 1;
	st.global.u32 	[%rd5], %r3;
	ld.global.u32 	%r4, [%rd4];
	setp.ne.s32 	%p1, %r4, 0;
	setp.lt.s32 	%p2, %r3, %r1;
	and.pred  	%p3, %p2, %p1;
	selp.u32 	%r5, 1, 0, %p3;
	{
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd1;
	.param .b32 param1;
	st.param.b32 	[param1+0], %r5;
	call.uni
	cudaGraphSetConditional,
	(
	param0,
	param1
	);
	}
	ret;
}
)";

size_t count_loops(const std::vector<PlanOp>& ops) {
  size_t n = 0;
  for (const PlanOp& op : ops)
    if (op.kind == PlanOp::Kind::Loop) n += 1 + count_loops(op.body);
  return n;
}

CUgraphNodeParams node_params(CUgraphNodeType type) {
  CUgraphNodeParams p;
  std::memset(&p, 0, sizeof p);  // the driver asks for every unused byte zero
  p.type = type;
  return p;
}

}  // namespace

DeviceLoopGraph::DeviceLoopGraph(const CudaDriver& cu, const std::vector<PlanOp>& program, const BufferTable& table,
                                 const std::function<GraphKernel(size_t)>& kernel)
    : cu_(cu),
      table_(table),
      loop_test_(cu, kLoopTestPtx),
      runs_(cu, std::max<size_t>(1, count_loops(program)) * sizeof(int32_t)) {
  if (!cu.has_conditional_graphs()) throw std::runtime_error("the CUDA driver has no conditional graph nodes");
  cu.check(cu.ctx_get_current(&context_), "reading the current context");
  loop_test_function_ = loop_test_.function("ktune_loop_test");
  cu.check(cu.graph_create(&graph_, 0), "creating a CUDA graph");
  add_ops(graph_, program, nullptr, kernel);
  cu.check(cu.graph_instantiate(&exec_, graph_, 0), "instantiating the plan's CUDA graph");
}

DeviceLoopGraph::~DeviceLoopGraph() {
  if (exec_) cu_.graph_exec_destroy(exec_);
  if (graph_) cu_.graph_destroy(graph_);
}

void DeviceLoopGraph::launch(CUstream stream) const { cu_.check(cu_.graph_launch(exec_, stream), "launching the plan's graph"); }

CUgraphNode DeviceLoopGraph::add(CUgraph graph, CUgraphNode after, CUgraphNodeParams& params) {
  CUgraphNode node = nullptr;
  cu_.check(cu_.graph_add_node(&node, graph, after ? &after : nullptr, nullptr, after ? 1 : 0, &params),
            "adding a node to the plan's graph");
  return node;
}

void DeviceLoopGraph::add_memset(CUgraph graph, CUgraphNode& after, CUdeviceptr address, uint32_t word, size_t words) {
  CUgraphNodeParams p = node_params(CU_GRAPH_NODE_TYPE_MEMSET);
  p.memset.dst = address;
  p.memset.value = word;
  p.memset.elementSize = sizeof(uint32_t);
  p.memset.width = words;
  p.memset.height = 1;
  p.memset.ctx = context_;
  after = add(graph, after, p);
}

// The ops as a chain in `graph` after `after` (none: at the start); returns the chain's end.
CUgraphNode DeviceLoopGraph::add_ops(CUgraph graph, const std::vector<PlanOp>& ops, CUgraphNode after,
                                     const KernelOf& kernel) {
  for (const PlanOp& op : ops) {
    switch (op.kind) {
      case PlanOp::Kind::Launch: {
        GraphKernel k = kernel(op.launch);
        CUgraphNodeParams p = node_params(CU_GRAPH_NODE_TYPE_KERNEL);
        p.kernel.func = k.function;
        p.kernel.gridDimX = k.grid.x;
        p.kernel.gridDimY = k.grid.y;
        p.kernel.gridDimZ = k.grid.z;
        p.kernel.blockDimX = k.block.x;
        p.kernel.blockDimY = k.block.y;
        p.kernel.blockDimZ = k.block.z;
        p.kernel.sharedMemBytes = k.shared_bytes;
        p.kernel.kernelParams = k.params.data();
        after = add(graph, after, p);
        if (k.cluster.x * k.cluster.y * k.cluster.z > 1) {
          // A node launched in clusters carries them as an attribute, as cuLaunchKernelEx would.
          CUlaunchAttributeValue v{};
          v.clusterDim.x = k.cluster.x;
          v.clusterDim.y = k.cluster.y;
          v.clusterDim.z = k.cluster.z;
          cu_.check(cu_.graph_kernel_node_set_attribute(after, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, &v),
                    "giving a kernel node its clusters");
        }
        break;
      }
      case PlanOp::Kind::Fill:
        add_memset(graph, after, table_.at(op.buffer), op.word, table_.size.at(op.buffer) / sizeof(uint32_t));
        break;
      case PlanOp::Kind::Copy: {
        CUgraphNodeParams p = node_params(CU_GRAPH_NODE_TYPE_MEMCPY);
        p.memcpy.copyCtx = context_;
        CUDA_MEMCPY3D& c = p.memcpy.copyParams;
        c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
        c.srcDevice = table_.at(op.from);
        c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
        c.dstDevice = table_.at(op.buffer);
        c.WidthInBytes = table_.size.at(op.from);
        c.Height = 1;
        c.Depth = 1;
        after = add(graph, after, p);
        break;
      }
      case PlanOp::Kind::Loop:
        after = add_loop(graph, op, after, kernel);
        break;
    }
  }
  return after;
}

// A while-node over the loop's body, which ends with the loop test; the node starts true each
// time the graph launches (the body runs at least once, as on the host), after its iteration
// count is cleared.
CUgraphNode DeviceLoopGraph::add_loop(CUgraph graph, const PlanOp& loop, CUgraphNode after, const KernelOf& kernel) {
  CUdeviceptr runs = runs_.get() + loops_added_++ * sizeof(int32_t);
  add_memset(graph, after, runs, 0, 1);
  CUgraphConditionalHandle handle = 0;
  cu_.check(cu_.graph_conditional_handle_create(&handle, graph, context_, 1, CU_GRAPH_COND_ASSIGN_DEFAULT),
            "creating a loop's condition");
  CUgraphNodeParams p = node_params(CU_GRAPH_NODE_TYPE_CONDITIONAL);
  p.conditional.handle = handle;
  p.conditional.type = CU_GRAPH_COND_TYPE_WHILE;
  p.conditional.size = 1;
  p.conditional.ctx = context_;
  const CUgraphNode node = add(graph, after, p);
  const CUgraph body = p.conditional.phGraph_out[0];
  const CUgraphNode last = add_ops(body, loop.body, nullptr, kernel);

  CUdeviceptr counter = table_.at(loop.until_zero);
  int32_t bound = loop.max_iterations;
  void* args[] = {&handle, &counter, &runs, &bound};
  CUgraphNodeParams test = node_params(CU_GRAPH_NODE_TYPE_KERNEL);
  test.kernel.func = loop_test_function_;
  test.kernel.gridDimX = test.kernel.gridDimY = test.kernel.gridDimZ = 1;
  test.kernel.blockDimX = test.kernel.blockDimY = test.kernel.blockDimZ = 1;
  test.kernel.kernelParams = args;
  add(body, last, test);
  return node;
}

}  // namespace ktune
