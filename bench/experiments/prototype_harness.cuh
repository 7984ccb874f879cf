#pragma once
// What the SpMV prototypes of bench/experiments share beyond prototype_timing.cuh: the R-MAT
// case with its CPU reference, the harness's verification against that reference, and the
// cuSPARSE baseline (CSR_ALG1 and CSR_ALG2, preprocessed) timed the same way.
#include <cusparse.h>

#include <string>
#include <vector>

#include "bench/experiments/prototype_timing.cuh"

#include "kernels/output_check.h"
#include "kernels/spmv/spmv_reference.h"
#include "workload/csr_matrix.h"
#include "workload/generators.h"

#define CHECK_SPARSE(call)                                                   \
  do {                                                                       \
    cusparseStatus_t s_ = (call);                                            \
    if (s_ != CUSPARSE_STATUS_SUCCESS) {                                     \
      fprintf(stderr, "%s:%d %s: %d\n", __FILE__, __LINE__, #call, (int)s_); \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

// Rows that fail the harness's verification (gpu/measure_verification.h) against the CPU twin.
template <typename T>
long long wrong_rows(const std::vector<double>& reference, const std::vector<int32_t>& row_lengths,
                     const T* y_dev) {
  std::string y(reference.size() * sizeof(T), '\0');
  CHECK(cudaMemcpy(y.data(), y_dev, y.size(), cudaMemcpyDeviceToHost));
  const ktune::Dtype dtype = sizeof(T) == 4 ? ktune::Dtype::F32 : ktune::Dtype::F64;
  const auto length = [&row_lengths](size_t i) { return static_cast<double>(row_lengths[i]); };
  return ktune::check_reduction_output(y, dtype, reference, length).bad_elements;
}

// An R-MAT graph with the prototypes' x, its CPU reference, and its CSR, x and y on the device.
template <typename T>
struct RmatCase {
  ktune::CsrF64 a;
  std::vector<double> reference;
  std::vector<int32_t> row_lengths;
  cudaDeviceProp prop;
  int* d_row_ptr = nullptr;
  int* d_col_idx = nullptr;
  T* d_values = nullptr;
  T* d_x = nullptr;
  T* d_y = nullptr;

  RmatCase(int scale, int edge_factor) : a(ktune::generate_rmat(scale, edge_factor, 1)) {
    std::vector<double> x(a.cols);
    for (int j = 0; j < a.cols; ++j) x[j] = 0.5 + (j * 2654435761u % 1000003u) / 1000003.0;
    reference = ktune::spmv_reference(a, x);
    row_lengths.resize(a.rows);
    for (int r = 0; r < a.rows; ++r) row_lengths[r] = a.row_length(r);
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("# device %s, %d SMs, L2 %d MB, smem/SM %zu KB; R-MAT %d ef %d: %d rows, %lld nnz, %s\n",
           prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20,
           prop.sharedMemPerMultiprocessor >> 10, scale, edge_factor, a.rows, (long long)a.nnz(),
           sizeof(T) == 4 ? "f32" : "f64");
    d_row_ptr = upload(a.row_ptr);
    d_col_idx = upload(a.col_idx);
    d_values = upload(std::vector<T>(a.values.begin(), a.values.end()));
    d_x = upload(std::vector<T>(x.begin(), x.end()));
    CHECK(cudaMalloc(&d_y, a.rows * sizeof(T)));
  }
  long long wrong() const { return wrong_rows<T>(reference, row_lengths, d_y); }
};

// cuSPARSE's CSR_ALG1 and CSR_ALG2 on the case's device CSR, each verified and timed by `timer`;
// prints both and returns the faster one's median.
template <typename T>
double cusparse_best_us(const RmatCase<T>& c, Timer& timer, int reps) {
  const char* dtype = sizeof(T) == 4 ? "f32" : "f64";
  const ktune::CsrF64& a = c.a;
  cusparseHandle_t handle;
  CHECK_SPARSE(cusparseCreate(&handle));
  cusparseSpMatDescr_t mat;
  cusparseDnVecDescr_t vx, vy;
  const cudaDataType cuda_t = sizeof(T) == 4 ? CUDA_R_32F : CUDA_R_64F;
  CHECK_SPARSE(cusparseCreateCsr(&mat, a.rows, a.cols, a.nnz(), c.d_row_ptr, c.d_col_idx, c.d_values,
                                 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                 cuda_t));
  CHECK_SPARSE(cusparseCreateDnVec(&vx, a.cols, c.d_x, cuda_t));
  CHECK_SPARSE(cusparseCreateDnVec(&vy, a.rows, c.d_y, cuda_t));
  const T one = 1, zero = 0;
  double best = 1e30;
  for (cusparseSpMVAlg_t alg : {CUSPARSE_SPMV_CSR_ALG1, CUSPARSE_SPMV_CSR_ALG2}) {
    size_t bytes = 0;
    void* buffer = nullptr;
    CHECK_SPARSE(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx,
                                         &zero, vy, cuda_t, alg, &bytes));
    CHECK(cudaMalloc(&buffer, std::max<size_t>(bytes, 1)));
    CHECK_SPARSE(cusparseSpMV_preprocess(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx,
                                         &zero, vy, cuda_t, alg, buffer));
    auto spmv = [&] {
      CHECK_SPARSE(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero,
                                vy, cuda_t, alg, buffer));
    };
    CHECK(cudaMemset(c.d_y, 0xff, a.rows * sizeof(T)));
    spmv();
    const long long wrong = c.wrong();
    const double us = timer.median_us(spmv, reps);
    best = std::min(best, us);
    printf("cusparse %s alg%d: %.1f us, wrong rows %lld\n", dtype,
           alg == CUSPARSE_SPMV_CSR_ALG1 ? 1 : 2, us, wrong);
    fflush(stdout);
    CHECK(cudaFree(buffer));
  }
  CHECK_SPARSE(cusparseDestroySpMat(mat));
  CHECK_SPARSE(cusparseDestroyDnVec(vx));
  CHECK_SPARSE(cusparseDestroyDnVec(vy));
  CHECK_SPARSE(cusparseDestroy(handle));
  return best;
}

// The line a prototype ends with: its fastest verified configuration against cuSPARSE.
inline void print_best(const char* dtype, const std::string& name, double best_us, double vendor_us) {
  printf("BEST %s %s: %.1f us against cuSPARSE %.1f us: %.2fx\n", dtype, name.c_str(), best_us,
         vendor_us, vendor_us / best_us);
}

// The options every prototype takes: the R-MAT graph, the repetitions, the precision.
struct CommonArgs {
  int scale = 22;
  int edge_factor = 16;
  int reps = 21;
  bool f64 = false;
  // Takes argv[i] (and its value, advancing i) when it is one of them.
  bool parse_common(int& i, int argc, char** argv) {
    const std::string arg = argv[i];
    if (arg == "--f64") f64 = true;
    else if (arg == "--scale" && i + 1 < argc) scale = atoi(argv[++i]);
    else if (arg == "--reps" && i + 1 < argc) reps = atoi(argv[++i]);
    else return false;
    return true;
  }
};
