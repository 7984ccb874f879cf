#include "kernels/problem.h"

#include <cmath>
#include <set>

#include "workload/input_error.h"

namespace ktune {
namespace {

std::string number_text(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<int64_t>(v));
  return nlohmann::json(v).dump();
}

bool is_integer(const nlohmann::json& v) {
  return v.is_number_integer() || (v.is_number_float() && v.get<double>() == std::floor(v.get<double>()) &&
                                   std::fabs(v.get<double>()) < 9e15);
}

[[noreturn]] void refuse(const ProblemField& f, const std::string& what) {
  throw InputError("problem." + f.name + " " + what + "; it accepts " + f.accepts());
}

void check_in_range(const ProblemField& f, const nlohmann::json& v, const char* what) {
  if (!(f.kind == FieldKind::Number ? v.is_number() : is_integer(v))) refuse(f, std::string("must be ") + what);
  const double x = v.get<double>();
  if (x < f.lo || x > f.hi) refuse(f, "is " + number_text(x) + ", out of range");
}

nlohmann::json canonical_value(const ProblemField& f, const nlohmann::json& v) {
  switch (f.kind) {
    case FieldKind::Integer:
      check_in_range(f, v, "an integer");
      return v.get<int64_t>();
    case FieldKind::Number:
      check_in_range(f, v, "a number");
      return v.get<double>();
    case FieldKind::IntegerList: {
      if (!v.is_array()) refuse(f, "must be a list of integers");
      if (v.size() > f.max_items) refuse(f, "has " + std::to_string(v.size()) + " items, too many");
      nlohmann::json out = nlohmann::json::array();
      for (const nlohmann::json& item : v) {
        check_in_range(f, item, "a list of integers");
        out.push_back(item.get<int64_t>());
      }
      return out;
    }
    case FieldKind::Choice:
      if (!v.is_string()) refuse(f, "must be a string");
      for (const std::string& c : f.choices)
        if (c == v.get<std::string>()) return v;
      refuse(f, "is '" + v.get<std::string>() + "'");
    case FieldKind::Boolean:
      if (!v.is_boolean()) refuse(f, "must be true or false");
      return v;
    case FieldKind::Text: {
      if (!v.is_string()) refuse(f, "must be a string");
      const std::string& s = v.get_ref<const std::string&>();
      if (s.size() > static_cast<size_t>(f.hi)) refuse(f, "has " + std::to_string(s.size()) + " characters, too many");
      for (char c : s)
        if (c < 0x20 || c > 0x7e) refuse(f, "holds a character that is not printable ASCII");
      return v;
    }
  }
  return v;
}

}  // namespace

ProblemField ProblemField::integer(std::string name, int64_t lo, int64_t hi, nlohmann::json fallback,
                                   std::string description) {
  ProblemField f;
  f.name = std::move(name);
  f.kind = FieldKind::Integer;
  f.lo = static_cast<double>(lo);
  f.hi = static_cast<double>(hi);
  f.fallback = std::move(fallback);
  f.description = std::move(description);
  return f;
}

ProblemField ProblemField::number(std::string name, double lo, double hi, nlohmann::json fallback,
                                  std::string description) {
  ProblemField f = integer(std::move(name), 0, 0, std::move(fallback), std::move(description));
  f.kind = FieldKind::Number;
  f.lo = lo;
  f.hi = hi;
  return f;
}

ProblemField ProblemField::integer_list(std::string name, int64_t lo, int64_t hi, size_t max_items,
                                        nlohmann::json fallback, std::string description) {
  ProblemField f = integer(std::move(name), lo, hi, std::move(fallback), std::move(description));
  f.kind = FieldKind::IntegerList;
  f.max_items = max_items;
  return f;
}

ProblemField ProblemField::choice(std::string name, std::vector<std::string> choices, nlohmann::json fallback,
                                  std::string description) {
  ProblemField f = integer(std::move(name), 0, 0, std::move(fallback), std::move(description));
  f.kind = FieldKind::Choice;
  f.choices = std::move(choices);
  return f;
}

ProblemField ProblemField::boolean(std::string name, bool fallback, std::string description) {
  ProblemField f = integer(std::move(name), 0, 0, fallback, std::move(description));
  f.kind = FieldKind::Boolean;
  return f;
}

ProblemField ProblemField::text(std::string name, size_t max_length, std::string fallback, std::string description) {
  ProblemField f = integer(std::move(name), 0, static_cast<int64_t>(max_length), std::move(fallback), std::move(description));
  f.kind = FieldKind::Text;
  return f;
}

std::string ProblemField::accepts() const {
  switch (kind) {
    case FieldKind::Integer: return "an integer in " + number_text(lo) + ".." + number_text(hi);
    case FieldKind::Number: return "a number in " + number_text(lo) + ".." + number_text(hi);
    case FieldKind::IntegerList:
      return "up to " + std::to_string(max_items) + " integers in " + number_text(lo) + ".." + number_text(hi);
    case FieldKind::Choice: {
      std::string out = "one of";
      for (const std::string& c : choices) out += " '" + c + "'";
      return out;
    }
    case FieldKind::Boolean: return "true or false";
    case FieldKind::Text: return "printable text of up to " + number_text(hi) + " characters";
  }
  return "";
}

nlohmann::json ProblemSchema::validate(const nlohmann::json& given) const {
  if (!given.is_null() && !given.is_object()) throw InputError("'problem' must be an object");
  std::set<std::string> known;
  for (const ProblemField& f : fields) known.insert(f.name);
  if (given.is_object()) {
    for (const auto& [key, value] : given.items()) {
      if (known.count(key)) continue;
      std::string list;
      for (const ProblemField& f : fields) list += (list.empty() ? "" : ", ") + f.name + " (" + f.accepts() + ")";
      throw InputError("unknown problem parameter '" + key + "'; this kernel takes " +
                       (list.empty() ? std::string("none") : list));
    }
  }
  nlohmann::json out = nlohmann::json::object();
  for (const ProblemField& f : fields) {
    const bool present = given.is_object() && given.contains(f.name);
    if (!present && f.fallback.is_null()) refuse(f, "is required");
    out[f.name] = canonical_value(f, present ? given[f.name] : f.fallback);
  }
  return out;
}

nlohmann::json ProblemSchema::describe() const {
  nlohmann::json out = nlohmann::json::object();
  for (const ProblemField& f : fields)
    out[f.name] = {{"accepts", f.accepts()}, {"default", f.fallback}, {"description", f.description}};
  return out;
}

}  // namespace ktune
