#include "kernels/contraction/contraction_reference.h"

namespace ktune {

std::vector<double> contraction_operand(ContractionTensor tensor, int64_t elements) {
  std::vector<double> v(static_cast<size_t>(elements));
  const uint64_t salt = 0x9E3779B97F4A7C15ull * (static_cast<uint64_t>(tensor) + 1);
  for (size_t i = 0; i < v.size(); ++i) {
    uint64_t h = (i + 1) * 0xD1B54A32D192ED03ull ^ salt;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    v[i] = static_cast<double>(static_cast<int64_t>(h % 129) - 64) / 64.0;
  }
  return v;
}

std::vector<double> contraction_reference(const ContractionSpec& s) {
  const std::vector<double> in = contraction_operand(ContractionTensor::In, s.out_elements());
  const std::vector<double> a = contraction_operand(ContractionTensor::A, s.a_elements());
  const std::vector<double> b = contraction_operand(ContractionTensor::B, s.b_elements());
  // Offsets of every contracted combination in A and B, once.
  const std::vector<std::string> con = s.contracted();
  const std::vector<int64_t> con_a = s.strides_in(s.a, con), con_b = s.strides_in(s.b, con);
  std::vector<int64_t> ca, cb;
  for (int64_t c = 0; c < s.contracted_elements(); ++c) {
    int64_t rest = c, oa = 0, ob = 0;
    for (size_t d = 0; d < con.size(); ++d, rest /= s.extent) oa += rest % s.extent * con_a[d], ob += rest % s.extent * con_b[d];
    ca.push_back(oa), cb.push_back(ob);
  }
  const std::vector<int64_t> out_a = s.strides_in(s.a, s.out), out_b = s.strides_in(s.b, s.out);
  std::vector<double> out(in.size());
  std::vector<int64_t> digit(s.out.size(), 0);
  int64_t oa = 0, ob = 0;  // the offsets of the output element's own indices, kept as an odometer
  for (size_t o = 0; o < out.size(); ++o) {
    double sum = 0;
    for (size_t c = 0; c < ca.size(); ++c) sum += a[static_cast<size_t>(oa + ca[c])] * b[static_cast<size_t>(ob + cb[c])];
    out[o] = in[o] + s.sign * sum;
    for (size_t d = 0; d < digit.size(); ++d) {
      ++digit[d], oa += out_a[d], ob += out_b[d];
      if (digit[d] < s.extent) break;
      oa -= s.extent * out_a[d], ob -= s.extent * out_b[d], digit[d] = 0;
    }
  }
  return out;
}

}  // namespace ktune
