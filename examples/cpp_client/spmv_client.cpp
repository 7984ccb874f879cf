// y = A·x with the kernel ktuned tuned for A, through ktune's C++ client, checked against
// cuSPARSE and timed beside it.
//   spmv_client MATRIX.mtx[.gz] [f32|f64]
// The daemon is $KTUNE_SERVER (default 127.0.0.1:8077); without one the client runs cuSPARSE
// itself and says so on stderr. Exit status: 0 when y matches, 1 when it does not, 2 on error.
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include <ktune/tuned_kernel.h>

#include "workload/matrix_market.h"

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
void check(cusparseStatus_t s, const char* what) {
  if (s != CUSPARSE_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + ": " + cusparseGetErrorString(s));
}

template <typename T>
struct DeviceArray {
  explicit DeviceArray(const std::vector<T>& host) : size(host.size()) {
    check(cudaMalloc(&data, std::max<size_t>(1, size) * sizeof(T)), "cudaMalloc");
    check(cudaMemcpy(data, host.data(), size * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  ~DeviceArray() { cudaFree(data); }
  std::vector<T> read() const {
    std::vector<T> host(size);
    check(cudaMemcpy(host.data(), data, size * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
    return host;
  }
  ktune::DeviceAddress address() const { return reinterpret_cast<ktune::DeviceAddress>(data); }
  T* data = nullptr;
  size_t size;
};

// Milliseconds per call of `run`, averaged over 100 calls on `stream`.
template <typename Run>
float time_ms(cudaStream_t stream, Run run) {
  cudaEvent_t start, end;
  cudaEventCreate(&start);
  cudaEventCreate(&end);
  run();  // warm up
  cudaEventRecord(start, stream);
  for (int i = 0; i < 100; ++i) run();
  cudaEventRecord(end, stream);
  check(cudaEventSynchronize(end), "timing");
  float ms = 0;
  cudaEventElapsedTime(&ms, start, end);
  cudaEventDestroy(start);
  cudaEventDestroy(end);
  return ms / 100;
}

template <typename T>
int run(const std::string& path, const std::string& dtype) {
  const ktune::CsrF64 a = ktune::read_matrix_market_file(path, ktune::ReadLimits{});
  std::vector<T> values(a.values.begin(), a.values.end()), x(static_cast<size_t>(a.cols));
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<T>(1 + static_cast<double>(i % 7) / 4);
  std::printf("%s: %d x %d, %lld entries\n", path.c_str(), a.rows, a.cols, static_cast<long long>(a.nnz()));

  // The client uploads the matrix in the form its configuration reads; we give x and y.
  ktune::TunedKernel spmv = ktune::TunedKernel::open({"spmv", dtype, {}}, a);
  std::printf("ktune: answer %s, running %s\n", spmv.match().c_str(), spmv.runs().c_str());

  cudaStream_t stream;
  check(cudaStreamCreate(&stream), "cudaStreamCreate");
  DeviceArray<T> dx(x), dy(std::vector<T>(static_cast<size_t>(a.rows))), dy_ref(std::vector<T>(static_cast<size_t>(a.rows)));
  auto ktune_spmv = [&] { spmv.launch({{"x", dx.address()}, {"y", dy.address()}}, stream); };
  ktune_spmv();

  // cuSPARSE on the same matrix, as CSR.
  DeviceArray<int32_t> row_ptr(a.row_ptr), col_idx(a.col_idx);
  DeviceArray<T> dvalues(values);
  const cudaDataType type = sizeof(T) == 4 ? CUDA_R_32F : CUDA_R_64F;
  cusparseHandle_t handle;
  check(cusparseCreate(&handle), "cusparseCreate");
  check(cusparseSetStream(handle, stream), "cusparseSetStream");
  cusparseSpMatDescr_t mat;
  cusparseDnVecDescr_t vx, vy;
  check(cusparseCreateCsr(&mat, a.rows, a.cols, a.nnz(), row_ptr.data, col_idx.data, dvalues.data, CUSPARSE_INDEX_32I,
                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type),
        "cusparseCreateCsr");
  check(cusparseCreateDnVec(&vx, a.cols, dx.data, type), "cusparseCreateDnVec");
  check(cusparseCreateDnVec(&vy, a.rows, dy_ref.data, type), "cusparseCreateDnVec");
  const T one = 1, zero = 0;
  size_t work_bytes = 0;
  check(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy, type,
                                CUSPARSE_SPMV_ALG_DEFAULT, &work_bytes),
        "cusparseSpMV_bufferSize");
  void* work = nullptr;
  check(cudaMalloc(&work, std::max<size_t>(1, work_bytes)), "cudaMalloc");
  auto cusparse_spmv = [&] {
    check(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy, type,
                       CUSPARSE_SPMV_ALG_DEFAULT, work),
          "cusparseSpMV");
  };
  cusparse_spmv();
  check(cudaStreamSynchronize(stream), "running SpMV");

  // Each row against the error bound of a reduction in T of its length, relative to its own
  // scale (the sum of |a_ij x_j|): the two libraries add in different orders.
  const std::vector<T> y = dy.read(), y_ref = dy_ref.read();
  double worst = 0;
  for (int32_t r = 0; r < a.rows; ++r) {
    double scale = 0;
    for (int32_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) scale += std::abs(a.values[k] * static_cast<double>(x[a.col_idx[k]]));
    const double bound = scale * std::max(1, a.row_ptr[r + 1] - a.row_ptr[r]);
    const double error = std::abs(static_cast<double>(y[r]) - static_cast<double>(y_ref[r]));
    worst = std::max(worst, bound > 0 ? error / bound : error);
  }
  const double tolerance = 2 * std::numeric_limits<T>::epsilon();
  const float ours = time_ms(stream, ktune_spmv), theirs = time_ms(stream, cusparse_spmv);
  std::printf("max error per row, relative to its bound %.3g (tolerance %.2g): %s\n", worst, tolerance, worst <= tolerance ? "match" : "MISMATCH");
  std::printf("time per call: ktune %.2f us, cuSPARSE %.2f us\n", ours * 1000, theirs * 1000);

  cudaFree(work);
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cusparseDestroySpMat(mat);
  cusparseDestroy(handle);
  cudaStreamDestroy(stream);
  return worst <= tolerance ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: spmv_client MATRIX.mtx[.gz] [f32|f64]\n";
    return 2;
  }
  const std::string dtype = argc == 3 ? argv[2] : "f32";
  try {
    if (dtype == "f32") return run<float>(argv[1], dtype);
    if (dtype == "f64") return run<double>(argv[1], dtype);
    std::cerr << "spmv_client: dtype must be f32 or f64\n";
  } catch (const std::exception& e) {
    std::cerr << "spmv_client: " << e.what() << "\n";
  }
  return 2;
}
