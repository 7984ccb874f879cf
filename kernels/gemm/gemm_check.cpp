#include "kernels/gemm/gemm_check.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "kernels/gemm/gemm_reference.h"

namespace ktune {

namespace {

template <typename T>
HostBytes bytes_of(const std::vector<T>& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return HostBytes(std::move(bytes));
}

template <typename T>
T read(std::string_view bytes, size_t i) {
  T v;
  std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
  return v;
}

double unit_roundoff(Dtype d) { return d == Dtype::F64 ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24); }
// How far the tensor cores' reading of an input may lie from the value stored: tf32 keeps 10 of
// f32's 23 mantissa bits and may truncate (a relative 2^-10 each factor); the other inputs are
// read as stored.
double input_reading_error(Dtype d) { return d == Dtype::TF32 ? std::ldexp(1.0, -10) : 0.0; }
double min_normal(Dtype d) {
  return d == Dtype::F64 ? std::numeric_limits<double>::min() : std::numeric_limits<float>::min();
}

Verdict failed(std::string message) {
  Verdict v;
  v.message = std::move(message);
  return v;
}

}  // namespace

std::map<std::string, HostBytes> gemm_sample_data(const GemmShape& s) {
  const std::vector<int64_t> indices = gemm_sample_indices(s);
  std::vector<double> magnitudes;
  magnitudes.reserve(indices.size());
  for (int64_t i : indices) magnitudes.push_back(gemm_reference_at(s, i).magnitude);
  return {{"sample_index", bytes_of(indices)}, {"sample_magnitude", bytes_of(magnitudes)}};
}

Verdict check_gemm_sample(const GemmShape& s, const Precision& p, const PlanOutput& output, std::string_view got,
                          const std::vector<double>& expected, const CheckData& data) {
  if (const std::string problem = output_size_problem(got, output.dtype, output.elements); !problem.empty())
    return failed(problem);
  auto index = data.find("sample_index"), magnitude = data.find("sample_magnitude");
  if (index == data.end() || magnitude == data.end() || index->second.size() != expected.size() * sizeof(int64_t) ||
      magnitude->second.size() != expected.size() * sizeof(double))
    return failed("the sampled elements to check C against are missing");
  const double u_acc = unit_roundoff(p.accumulate), u_out = unit_roundoff(output.dtype);
  const double u_in = input_reading_error(p.input);
  Verdict v;
  v.ok = true;
  double scale = min_normal(output.dtype);
  for (double e : expected) scale = std::max(scale, std::fabs(e));
  for (size_t i = 0; i < expected.size(); ++i) {
    const int64_t at = read<int64_t>(index->second, i);
    if (at < 0 || static_cast<size_t>(at) >= output.elements) return failed("a sampled element lies outside C");
    const double y = output_element(got, output.dtype, static_cast<size_t>(at));
    const double ref = expected[i];
    const double bound = (2.0 * (static_cast<double>(s.k) + 2) * u_acc + 2.0 * u_in) * read<double>(magnitude->second, i) +
                         u_out * std::fabs(ref) + min_normal(output.dtype);
    const double error = std::isfinite(y) ? std::fabs(y - ref) : std::numeric_limits<double>::infinity();
    v.max_rel_error = std::max(v.max_rel_error, error / scale);
    if (!(error <= bound)) {
      if (v.bad_elements == 0) {
        const int64_t per_batch = s.m * s.n;
        v.message = "C[" + std::to_string(at / per_batch) + "][" + std::to_string(at % per_batch / s.n) + "][" +
                    std::to_string(at % s.n) + "] = " + std::to_string(y) + ", expected " + std::to_string(ref) +
                    " (bound " + std::to_string(bound) + ")";
      }
      ++v.bad_elements;
      v.ok = false;
    }
  }
  if (!v.ok) v.message += "; " + std::to_string(v.bad_elements) + " of " + std::to_string(expected.size()) + " sampled elements wrong";
  return v;
}

}  // namespace ktune
