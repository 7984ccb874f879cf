#pragma once
// Owners of driver objects, so that an error half-way through a measurement frees what it
// had allocated: the worker lives on and the next configuration finds the memory free.
#include <cstddef>
#include <string>
#include <utility>

#include "gpu/cuda_driver.h"

namespace ktune {

class DeviceMemory {
 public:
  DeviceMemory() = default;
  // Zero bytes gives a null pointer, which the driver would refuse to allocate.
  DeviceMemory(const CudaDriver& cu, size_t bytes) : cu_(&cu), bytes_(bytes) {
    if (bytes > 0) cu.check(cu.mem_alloc(&ptr_, bytes), "allocating " + std::to_string(bytes) + " device bytes");
  }
  DeviceMemory(DeviceMemory&& other) noexcept { swap(other); }
  DeviceMemory& operator=(DeviceMemory&& other) noexcept {
    DeviceMemory moved(std::move(other));
    swap(moved);
    return *this;
  }
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  ~DeviceMemory() {
    if (ptr_) cu_->mem_free(ptr_);
  }

  CUdeviceptr get() const { return ptr_; }
  size_t bytes() const { return bytes_; }

 private:
  void swap(DeviceMemory& other) noexcept {
    std::swap(cu_, other.cu_);
    std::swap(ptr_, other.ptr_);
    std::swap(bytes_, other.bytes_);
  }
  const CudaDriver* cu_ = nullptr;
  CUdeviceptr ptr_ = 0;
  size_t bytes_ = 0;
};

// Page-locked host memory: a copy into it from the device is one asynchronous transfer,
// where pageable memory costs a staged, synchronous one.
class PinnedHostMemory {
 public:
  PinnedHostMemory(const CudaDriver& cu, size_t bytes) : cu_(cu) {
    cu.check(cu.mem_alloc_host(&ptr_, bytes), "allocating " + std::to_string(bytes) + " page-locked host bytes");
  }
  PinnedHostMemory(const PinnedHostMemory&) = delete;
  PinnedHostMemory& operator=(const PinnedHostMemory&) = delete;
  ~PinnedHostMemory() { cu_.mem_free_host(ptr_); }
  void* get() const { return ptr_; }

 private:
  const CudaDriver& cu_;
  void* ptr_ = nullptr;
};

class CudaEvent {
 public:
  explicit CudaEvent(const CudaDriver& cu) : cu_(cu) { cu.check(cu.event_create(&event_, CU_EVENT_DEFAULT), "creating an event"); }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  ~CudaEvent() { cu_.event_destroy(event_); }
  CUevent get() const { return event_; }

 private:
  const CudaDriver& cu_;
  CUevent event_ = nullptr;
};

// The device's primary context, made current: the one the CUDA runtime inside cuSPARSE
// finds and shares.
class PrimaryContext {
 public:
  PrimaryContext(const CudaDriver& cu, CUdevice device) : cu_(cu), device_(device) {
    cu.check(cu.primary_ctx_retain(&context_, device), "creating the device context");
    cu.check(cu.ctx_set_current(context_), "making the device context current");
  }
  PrimaryContext(const PrimaryContext&) = delete;
  PrimaryContext& operator=(const PrimaryContext&) = delete;
  ~PrimaryContext() { cu_.primary_ctx_release(device_); }
  CUcontext get() const { return context_; }

 private:
  const CudaDriver& cu_;
  CUdevice device_;
  CUcontext context_ = nullptr;
};

class CudaStream {
 public:
  // A blocking stream: it waits for the synchronous uploads, which run on the legacy
  // default stream and may still be in flight when cuMemcpyHtoD returns.
  explicit CudaStream(const CudaDriver& cu) : cu_(cu) { cu.check(cu.stream_create(&stream_, CU_STREAM_DEFAULT), "creating a stream"); }
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  ~CudaStream() { cu_.stream_destroy(stream_); }
  CUstream get() const { return stream_; }

 private:
  const CudaDriver& cu_;
  CUstream stream_ = nullptr;
};

class CudaModule {
 public:
  CudaModule(const CudaDriver& cu, const void* image) : cu_(cu) {
    cu.check(cu.module_load_data(&module_, image), "loading the kernel's cubin");
  }
  CudaModule(const CudaModule&) = delete;
  CudaModule& operator=(const CudaModule&) = delete;
  ~CudaModule() { cu_.module_unload(module_); }

  CUfunction function(const std::string& symbol) const {
    CUfunction f = nullptr;
    cu_.check(cu_.module_get_function(&f, module_, symbol.c_str()), "finding kernel '" + symbol + "' in the cubin");
    return f;
  }

 private:
  const CudaDriver& cu_;
  CUmodule module_ = nullptr;
};

}  // namespace ktune
