#pragma once
// The CUDA driver API, loaded at run time. The daemon must start (and answer from the model)
// on machines without a GPU or without libcuda, so nothing here is linked: cuda.h gives the
// types and the prototypes, dlopen gives the functions.
#include <cuda.h>

#include <stdexcept>
#include <string>

namespace ktune {

// A driver call that failed; `code` tells a launch problem from a broken context.
class CudaError : public std::runtime_error {
 public:
  CudaError(CUresult code, const std::string& message) : std::runtime_error(message), code(code) {}
  CUresult code;
};

// (symbol in cuda.h, member of CudaDriver). cuda.h maps versioned names (cuMemAlloc is
// cuMemAlloc_v2), so decltype(&symbol) is the prototype the driver returns for that name.
#define KTUNE_CUDA_DRIVER_FUNCTIONS(X)                \
  X(cuInit, init)                                     \
  X(cuDriverGetVersion, driver_get_version)           \
  X(cuDeviceGet, device_get)                          \
  X(cuDeviceGetCount, device_get_count)               \
  X(cuDeviceGetName, device_get_name)                 \
  X(cuDeviceGetAttribute, device_get_attribute)       \
  X(cuDeviceTotalMem, device_total_mem)               \
  X(cuDevicePrimaryCtxRetain, primary_ctx_retain)     \
  X(cuDevicePrimaryCtxRelease, primary_ctx_release)   \
  X(cuCtxSetCurrent, ctx_set_current)                 \
  X(cuCtxSynchronize, ctx_synchronize)                \
  X(cuCtxGetCurrent, ctx_get_current)                 \
  X(cuCtxGetDevice, ctx_get_device)                   \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor, occupancy_max_active_blocks) \
  X(cuModuleLoadData, module_load_data)               \
  X(cuModuleGetFunction, module_get_function)         \
  X(cuModuleUnload, module_unload)                    \
  X(cuFuncGetAttribute, func_get_attribute)           \
  X(cuFuncSetAttribute, func_set_attribute)           \
  X(cuLaunchKernel, launch_kernel)                    \
  X(cuLaunchKernelEx, launch_kernel_ex)               \
  X(cuTensorMapEncodeTiled, tensor_map_encode_tiled)  \
  X(cuMemAlloc, mem_alloc)                            \
  X(cuMemFree, mem_free)                              \
  X(cuMemcpyHtoD, memcpy_htod)                        \
  X(cuMemcpyDtoH, memcpy_dtoh)                        \
  X(cuMemcpyDtoDAsync, memcpy_dtod_async)             \
  X(cuMemcpyDtoHAsync, memcpy_dtoh_async)             \
  X(cuMemAllocHost, mem_alloc_host)                   \
  X(cuMemFreeHost, mem_free_host)                     \
  X(cuMemsetD8Async, memset_d8_async)                 \
  X(cuMemsetD32Async, memset_d32_async)               \
  X(cuStreamCreate, stream_create)                    \
  X(cuStreamSynchronize, stream_synchronize)          \
  X(cuStreamDestroy, stream_destroy)                  \
  X(cuEventCreate, event_create)                      \
  X(cuEventRecord, event_record)                      \
  X(cuEventSynchronize, event_synchronize)            \
  X(cuEventElapsedTime, event_elapsed_time)           \
  X(cuEventDestroy, event_destroy)                    \
  X(cuGetErrorName, get_error_name)                   \
  X(cuGetErrorString, get_error_string)

// Functions a driver may lack without ktune losing the GPU: CUDA graphs with conditional
// nodes, for loops the device runs (CUDA 12.4 and later), and a kernel node's cluster
// attribute. Null where the driver lacks them.
#define KTUNE_CUDA_DRIVER_OPTIONAL_FUNCTIONS(X)                          \
  X(cuGraphCreate, graph_create)                                         \
  X(cuGraphDestroy, graph_destroy)                                       \
  X(cuGraphAddNode, graph_add_node)                                      \
  X(cuGraphConditionalHandleCreate, graph_conditional_handle_create)     \
  X(cuGraphInstantiateWithFlags, graph_instantiate)                      \
  X(cuGraphLaunch, graph_launch)                                         \
  X(cuGraphExecDestroy, graph_exec_destroy)                             \
  X(cuGraphKernelNodeSetAttribute, graph_kernel_node_set_attribute)

struct CudaDriver {
#define KTUNE_CUDA_DRIVER_MEMBER(symbol, member) decltype(&::symbol) member = nullptr;
  KTUNE_CUDA_DRIVER_FUNCTIONS(KTUNE_CUDA_DRIVER_MEMBER)
  KTUNE_CUDA_DRIVER_OPTIONAL_FUNCTIONS(KTUNE_CUDA_DRIVER_MEMBER)
#undef KTUNE_CUDA_DRIVER_MEMBER

  // Whether every optional function is there: a loop can run on the device.
  bool has_conditional_graphs() const;

  // The process-wide driver, loaded and initialised (cuInit) once. Null when there is no
  // usable driver; `why_not` (if given) then says why, e.g. that libcuda.so.1 is missing.
  static const CudaDriver* load(std::string* why_not = nullptr);

  // Throws CudaError "<what>: CUDA_ERROR_NAME (description)" unless `result` is success.
  void check(CUresult result, const std::string& what) const;
  std::string describe(CUresult result) const;
};

}  // namespace ktune
