#include "kernels/contraction/contraction_spec.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "workload/input_error.h"

namespace ktune {
namespace {

// One "name[i,j,...]" (or parentheses) from `text` at `pos`.
std::pair<std::string, std::vector<std::string>> read_tensor(const std::string& text, size_t& pos) {
  auto skip = [&] {
    while (pos < text.size() && text[pos] == ' ') ++pos;
  };
  auto word = [&] {
    skip();
    const size_t start = pos;
    while (pos < text.size() && (std::isalnum(static_cast<unsigned char>(text[pos])) || text[pos] == '_')) ++pos;
    if (pos == start) throw InputError("contraction: expected a name at character " + std::to_string(start + 1));
    return text.substr(start, pos - start);
  };
  std::pair<std::string, std::vector<std::string>> t;
  t.first = word();
  skip();
  if (pos >= text.size() || (text[pos] != '[' && text[pos] != '('))
    throw InputError("contraction: '" + t.first + "' needs its indices in brackets");
  const char close = text[pos] == '[' ? ']' : ')';
  ++pos;
  for (;;) {
    t.second.push_back(word());
    skip();
    if (pos < text.size() && text[pos] == ',') {
      ++pos;
      continue;
    }
    if (pos < text.size() && text[pos] == close) {
      ++pos;
      break;
    }
    throw InputError("contraction: the indices of '" + t.first + "' are not closed by '" + close + "'");
  }
  if (t.second.size() > static_cast<size_t>(kContractionMaxRank))
    throw InputError("contraction: '" + t.first + "' has " + std::to_string(t.second.size()) + " indices, more than " +
                     std::to_string(kContractionMaxRank));
  if (std::set<std::string>(t.second.begin(), t.second.end()).size() != t.second.size())
    throw InputError("contraction: '" + t.first + "' repeats an index (traces are not contractions)");
  return t;
}

bool has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& contraction_presets() {
  // NWChem's CCSD(T) triples kernels (tce/ccsd_t): d1 sums over a hole index h7, d2 over a
  // particle index p7; each family is one product written in nine permutations of T3.
  static const std::vector<std::pair<std::string, std::string>> presets = {
      {"sd_t_d1_1", "T3[h3,h2,h1,p6,p5,p4] -= t2[h7,p4,p5,h1] * v2[h3,h2,p6,h7]"},
      {"sd_t_d1_2", "T3[h3,h1,h2,p6,p5,p4] += t2[h7,p4,p5,h1] * v2[h3,h2,p6,h7]"},
      {"sd_t_d1_3", "T3[h1,h3,h2,p6,p5,p4] -= t2[h7,p4,p5,h1] * v2[h3,h2,p6,h7]"},
      {"sd_t_d1_4", "T3[h3,h2,h1,p5,p4,p6] -= t2[h7,p4,p5,h1] * v2[h3,h2,p6,h7]"},
      {"sd_t_d1_5", "T3[h3,h1,h2,p5,p4,p6] += t2[h7,p4,p5,h1] * v2[h3,h2,p6,h7]"},
      {"sd_t_d1_6", "T3[h1,h3,h2,p5,p4,p6] -= t2[h7,p4,p5,h1] * v2[h3,h2,p6,h7]"},
      {"sd_t_d1_7", "T3[h3,h2,h1,p5,p6,p4] += t2[h7,p4,p5,h1] * v2[h3,h2,p6,h7]"},
      {"sd_t_d1_8", "T3[h3,h1,h2,p5,p6,p4] -= t2[h7,p4,p5,h1] * v2[h3,h2,p6,h7]"},
      {"sd_t_d1_9", "T3[h1,h3,h2,p5,p6,p4] += t2[h7,p4,p5,h1] * v2[h3,h2,p6,h7]"},
      {"sd_t_d2_1", "T3[h3,h2,h1,p6,p5,p4] -= t2[p7,p4,h1,h2] * v2[p7,h3,p6,p5]"},
      {"sd_t_d2_2", "T3[h2,h1,h3,p6,p5,p4] -= t2[p7,p4,h1,h2] * v2[p7,h3,p6,p5]"},
      {"sd_t_d2_3", "T3[h2,h3,h1,p6,p5,p4] += t2[p7,p4,h1,h2] * v2[p7,h3,p6,p5]"},
      {"sd_t_d2_4", "T3[h3,h2,h1,p6,p4,p5] += t2[p7,p4,h1,h2] * v2[p7,h3,p6,p5]"},
      {"sd_t_d2_5", "T3[h2,h1,h3,p6,p4,p5] += t2[p7,p4,h1,h2] * v2[p7,h3,p6,p5]"},
      {"sd_t_d2_6", "T3[h2,h3,h1,p6,p4,p5] -= t2[p7,p4,h1,h2] * v2[p7,h3,p6,p5]"},
      {"sd_t_d2_7", "T3[h3,h2,h1,p4,p6,p5] -= t2[p7,p4,h1,h2] * v2[p7,h3,p6,p5]"},
      {"sd_t_d2_8", "T3[h2,h1,h3,p4,p6,p5] -= t2[p7,p4,h1,h2] * v2[p7,h3,p6,p5]"},
      {"sd_t_d2_9", "T3[h2,h3,h1,p4,p6,p5] += t2[p7,p4,h1,h2] * v2[p7,h3,p6,p5]"},
  };
  return presets;
}

ContractionSpec ContractionSpec::parse(const std::string& expression, int64_t extent) {
  ContractionSpec s;
  s.extent = extent;
  size_t pos = 0;
  auto out = read_tensor(expression, pos);
  while (pos < expression.size() && expression[pos] == ' ') ++pos;
  if (expression.compare(pos, 2, "+=") == 0) s.sign = 1, pos += 2;
  else if (expression.compare(pos, 2, "-=") == 0) s.sign = -1, pos += 2;
  else if (expression.compare(pos, 1, "=") == 0) s.sign = 1, pos += 1;  // out = in + A·B, in zero
  else throw InputError("contraction: expected '+=', '-=' or '=' after '" + out.first + "[...]'");
  auto a = read_tensor(expression, pos);
  while (pos < expression.size() && expression[pos] == ' ') ++pos;
  if (pos >= expression.size() || expression[pos] != '*') throw InputError("contraction: expected '*' between the operands");
  ++pos;
  auto b = read_tensor(expression, pos);
  while (pos < expression.size() && expression[pos] == ' ') ++pos;
  if (pos != expression.size()) throw InputError("contraction: unexpected text after the second operand");
  s.out_name = out.first, s.a_name = a.first, s.b_name = b.first;
  s.out = out.second, s.a = a.second, s.b = b.second;
  for (const std::string& i : s.out)
    if (has(s.a, i) == has(s.b, i))
      throw InputError("contraction: output index '" + i + "' must come from exactly one operand" +
                       (has(s.a, i) ? " (a batch index in both is not supported)" : ""));
  for (const auto* operand : {&s.a, &s.b})
    for (const std::string& i : *operand)
      if (!has(s.out, i) && !has(operand == &s.a ? s.b : s.a, i))
        throw InputError("contraction: index '" + i + "' is in one operand only and not in the output");
  if (s.contracted().empty()) throw InputError("contraction: the operands share no index to sum over");
  // Element counts stay far inside 64 bits (check_problem then bounds the bytes).
  const size_t rank = std::max({s.out.size(), s.a.size(), s.b.size()});
  if (std::log2(static_cast<double>(extent)) * static_cast<double>(rank) > 40)
    throw LimitError("contraction: " + std::to_string(extent) + "^" + std::to_string(rank) +
                     " elements in one tensor, more than 2^40");
  return s;
}

ContractionSpec ContractionSpec::of(const Problem& p) {
  const std::string expression = p.params.value("expression", std::string());
  const int64_t extent = p.params.value("extent", int64_t{16});
  if (!expression.empty()) return parse(expression, extent);
  const std::string preset = p.params.value("preset", std::string("sd_t_d1_1"));
  for (const auto& [name, text] : contraction_presets())
    if (name == preset) return parse(text, extent);
  throw InputError("contraction: no preset '" + preset + "'");
}

std::vector<std::string> ContractionSpec::contracted() const {
  std::vector<std::string> c;
  for (const std::string& i : a)
    if (has(b, i) && !has(out, i)) c.push_back(i);
  return c;
}

namespace {
int64_t power(int64_t base, size_t n) {
  int64_t v = 1;
  for (size_t i = 0; i < n; ++i) v *= base;
  return v;
}
}  // namespace

std::vector<std::string> ContractionSpec::out_indices_of(const std::vector<std::string>& operand) const {
  std::vector<std::string> held;
  for (const std::string& i : operand)
    if (has(out, i)) held.push_back(i);
  return held;
}

int64_t ContractionSpec::elements_of(const std::vector<std::string>& indices) const {
  return power(extent, indices.size());
}

int64_t ContractionSpec::out_elements() const { return elements_of(out); }
int64_t ContractionSpec::a_elements() const { return elements_of(a); }
int64_t ContractionSpec::b_elements() const { return elements_of(b); }
int64_t ContractionSpec::contracted_elements() const { return elements_of(contracted()); }

std::vector<int64_t> ContractionSpec::strides_in(const std::vector<std::string>& tensor,
                                                 const std::vector<std::string>& indices) const {
  std::vector<int64_t> strides;
  for (const std::string& i : indices) {
    const auto it = std::find(tensor.begin(), tensor.end(), i);
    strides.push_back(it == tensor.end() ? 0 : power(extent, static_cast<size_t>(it - tensor.begin())));
  }
  return strides;
}

std::string braced(const std::vector<int64_t>& v) {
  std::string s = "{";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]) + "LL";
  return s + "}";
}

std::string ContractionSpec::text() const {
  return out_name + "[" + joined(out) + "] " + (sign < 0 ? "-=" : "+=") + " " + a_name + "[" + joined(a) + "] * " +
         b_name + "[" + joined(b) + "]";
}

}  // namespace ktune
