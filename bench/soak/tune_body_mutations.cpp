#include "bench/soak/tune_body_mutations.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <vector>

#include "bench/soak/random_pick.h"

namespace ktune::soak {
namespace {

using nlohmann::json;
using Rng = std::mt19937_64;

// String values replaced by raw text after dumping: how bytes that no JSON library would
// write (invalid UTF-8, bare NULs, numbers past double) get into a body.
std::string raw_marker(size_t index) { return "@@raw-text-" + std::to_string(index) + "@@"; }

std::vector<json> base_requests(const std::string& upload_id) {
  return {
      {{"kernel", "spmv"}, {"dtype", "f32"}, {"workload", {{"upload", upload_id}}}, {"budget", {{"compiles", 1}}}},
      {{"kernel", "spmv"},
       {"workload", {{"generator", "stencil2d"}, {"n", 16}}},
       {"budget", {{"compiles", 1}, {"seconds", 5}}},
       {"wait", false}},
      {{"kernel", "spmv"},
       {"dtype", "f64"},
       {"workload", {{"path", "small.mtx"}}},
       {"budget", {{"measurements", 4}, {"seconds", 5}, {"compiles", 1}, {"patience", 2}}},
       {"target_speedup", 1.5},
       {"hot", false},
       {"force", false}},
      {{"kernel", "spmv"},
       {"workload",
        {{"generator", "block_expand"},
         {"block", 2},
         {"of", {{"generator", "banded"}, {"n", 64}, {"bandwidth", 3}, {"seed", 1}}},
         {"seed", 1}}},
       {"budget", {{"compiles", 1}}}},
      {{"kernel", "spmv"},
       {"workload", {{"generator", "rmat"}, {"scale", 6}, {"edge_factor", 4}, {"seed", 1}}},
       {"budget", {{"compiles", 1}}},
       {"wait_seconds", 1}},
  };
}

// Every value below the root, as JSON pointers.
void collect(const json& j, const json::json_pointer& at, std::vector<json::json_pointer>& out) {
  if (!at.empty()) out.push_back(at);
  if (j.is_object())
    for (const auto& [key, value] : j.items()) collect(value, at / key, out);
  if (j.is_array())
    for (size_t i = 0; i < j.size(); ++i) collect(j[i], at / i, out);
}

json::json_pointer any_value(const json& j, Rng& rng) {
  std::vector<json::json_pointer> all;
  collect(j, json::json_pointer(), all);
  return one_of(rng, all);
}

json::json_pointer any_object(const json& j, Rng& rng) {
  std::vector<json::json_pointer> all = {json::json_pointer()};
  collect(j, json::json_pointer(), all);
  std::vector<json::json_pointer> objects;
  for (const auto& p : all)
    if (j.at(p).is_object()) objects.push_back(p);
  return one_of(rng, objects);
}

std::string nested(size_t depth, bool arrays) {
  const std::string open = arrays ? "[" : "{\"a\":", close = arrays ? "]" : "}";
  std::string text;
  text.reserve(depth * (open.size() + close.size()) + 1);
  for (size_t i = 0; i < depth; ++i) text += open;
  text += "1";
  for (size_t i = 0; i < depth; ++i) text += close;
  return text;
}

struct Draft {
  json body;
  std::vector<std::string> raw;  // raw[i] replaces raw_marker(i), quotes included
  std::string description;

  // A value to be written as `text` exactly.
  std::string splice(std::string text) {
    raw.push_back(std::move(text));
    return raw_marker(raw.size() - 1);
  }
};

using Mutation = std::function<void(Draft&, Rng&)>;

const std::vector<Mutation>& mutations() {
  static const std::vector<Mutation> all = {
      [](Draft& d, Rng& rng) {
        const auto at = any_value(d.body, rng);
        const json& old = d.body.at(at);
        static const std::vector<json> values = {json::array(),
                                                 json::object(),
                                                 "spmv",
                                                 true,
                                                 nullptr,
                                                 1.5,
                                                 -1,
                                                 0,
                                                 1e308,
                                                 json::array({1, 2}),
                                                 json::object({{"upload", 1}})};
        std::vector<json> wrong;
        for (const json& v : values)
          if (v.type() != old.type() && !(v.is_number() && old.is_number())) wrong.push_back(v);
        const json value = one_of(rng, wrong);
        d.description += " | " + at.to_string() + " -> " + value.dump();
        d.body[at] = value;
      },
      [](Draft& d, Rng& rng) {
        static const std::vector<std::string> keys = {"foo",       "Kernel",    "kernel ",           "",
                                                      "__proto__", "workload2", "\xc3\xa9t\xc3\xa9", "budget.compiles"};
        const auto at = any_object(d.body, rng);
        const std::string& key = one_of(rng, keys);
        d.body[at][key] = 1;
        d.description += " | unknown field '" + key + "' in '" + at.to_string() + "'";
      },
      [](Draft& d, Rng& rng) {
        const auto at = any_object(d.body, rng);
        json& object = d.body[at];
        if (object.empty()) return;
        auto it = object.begin();
        std::advance(it, static_cast<long>(below(rng, object.size())));
        d.description += " | field '" + it.key() + "' of '" + at.to_string() + "' removed";
        object.erase(it);
      },
      [](Draft& d, Rng& rng) {
        std::vector<json::json_pointer> numbers;
        std::vector<json::json_pointer> all;
        collect(d.body, json::json_pointer(), all);
        for (const auto& p : all)
          if (d.body.at(p).is_number()) numbers.push_back(p);
        if (numbers.empty()) return;
        static const std::vector<std::string> literals = {"1e309",
                                                          "-1e309",
                                                          "18446744073709551616",
                                                          "-9223372036854775809",
                                                          "1e-400",
                                                          "-0",
                                                          "-1",
                                                          "4294967297",
                                                          "1e999999999",
                                                          "0.0000001",
                                                          std::string(10000, '9'),
                                                          "-" + std::string(400, '9')};
        const auto at = one_of(rng, numbers);
        const std::string& literal = one_of(rng, literals);
        d.body[at] = d.splice(literal);
        d.description +=
            " | " + at.to_string() + " -> " + (literal.size() > 24 ? literal.substr(0, 24) + "..." : literal);
      },
      [](Draft& d, Rng& rng) {
        static const std::vector<size_t> depths = {33, 64, 1000, 10000, 100000};
        static const std::vector<std::string> where = {"/workload", "/workload/of", "/budget", "/zzz"};
        const size_t depth = one_of(rng, depths);
        const bool arrays = below(rng, 2);
        const std::string& at = one_of(rng, where);
        d.body[json::json_pointer(at)] = d.splice(nested(depth, arrays));
        d.description += " | " + std::to_string(depth) + " nested " + (arrays ? "arrays" : "objects") + " at " + at;
      },
      [](Draft& d, Rng& rng) {
        static const std::vector<std::string> texts = {"\xff\xfe", "spmv\xc3\x28",      "\xed\xa0\x80",
                                                       "f3\x80",   "small.mtx\xc0\xaf", "\xf8\x88\x80\x80\x80"};
        std::vector<json::json_pointer> strings;
        std::vector<json::json_pointer> all;
        collect(d.body, json::json_pointer(), all);
        for (const auto& p : all)
          if (d.body.at(p).is_string()) strings.push_back(p);
        const auto at = one_of(rng, strings);
        const std::string& text = one_of(rng, texts);
        d.body[at] = d.splice("\"" + text + "\"");
        d.description += " | " + at.to_string() + " -> invalid UTF-8";
      },
      [](Draft& d, Rng& rng) {
        static const std::vector<std::string> paths = {"../../etc/passwd",
                                                       "/etc/passwd",
                                                       "small.mtx\\u0000.png",
                                                       "a\\u0000b.mtx",
                                                       std::string(5000, 'a') + ".mtx",
                                                       [] {
                                                         std::string deep;
                                                         for (int i = 0; i < 2500; ++i) deep += "x/";
                                                         return deep + "small.mtx";
                                                       }(),
                                                       "%2e%2e/small.mtx",
                                                       "",
                                                       ".",
                                                       "..",
                                                       "data/../../x.mtx",
                                                       "..\\\\..\\\\x.mtx",
                                                       "missing.mtx",
                                                       "small.mtx/",
                                                       "/proc/self/environ",
                                                       "~/x.mtx",
                                                       "small.mtx.gz",
                                                       "\\u00ff.mtx"};
        const std::string& path = one_of(rng, paths);
        d.body["workload"] = {{"path", d.splice("\"" + path + "\"")}};
        d.description += " | path '" +
                         (path.size() > 40 ? path.substr(0, 40) + "...(" + std::to_string(path.size()) + ")" : path) +
                         "'";
      },
      [](Draft& d, Rng& rng) {
        d.body["workload"] = {{"path", d.splice(std::string("\"small\0.mtx\"", 12))}};
        d.description += " | path with a bare NUL";
      },
      [](Draft& d, Rng& rng) {
        static const std::vector<json> workloads = {
            {{"upload", "m00000000000000000000"}},
            {{"upload", ""}},
            {{"upload", 5}},
            {{"generator", "nope"}},
            {{"generator", "stencil2d"}, {"n", -5}},
            {{"generator", "stencil2d"}, {"n", 1000000000000}},
            {{"generator", "rmat"}, {"scale", 64}, {"edge_factor", 16}, {"seed", 1}},
            {{"generator", "uniform"}, {"rows", -1}, {"cols", 10}, {"per_row", 2}, {"seed", 1}},
            {{"upload", "x"}, {"path", "small.mtx"}},
            json::object(),
            json::array(),
            "small.mtx",
            nullptr};
        d.body["workload"] = one_of(rng, workloads);
        d.description += " | workload -> " + d.body["workload"].dump();
      },
      [](Draft& d, Rng& rng) {
        json spec = {{"generator", "banded"}, {"n", 32}, {"bandwidth", 2}, {"seed", 1}};
        // Short chains are legal and stay small (32 << 6 rows); long ones pass every limit.
        const size_t depth = one_of(rng, std::vector<size_t>{2, 3, 4, 5, 6, 33, 40});
        for (size_t i = 0; i < depth; ++i)
          spec = {{"generator", "block_expand"}, {"block", 2}, {"of", spec}, {"seed", 1}};
        d.body["workload"] = spec;
        d.description += " | block_expand chain of " + std::to_string(depth);
      },
  };
  return all;
}

// Breakage of the text itself, after dumping.
std::string break_text(std::string text, Rng& rng, std::string& description) {
  switch (below(rng, 8)) {
    case 0:
      text.resize(below(rng, text.size()));
      description += " | text truncated to " + std::to_string(text.size()) + " bytes";
      break;
    case 1:
      for (int i = 0; i < 3 && !text.empty(); ++i) text[below(rng, text.size())] = static_cast<char>(below(rng, 256));
      description += " | 3 byte flips";
      break;
    case 2:
      text += one_of(rng, std::vector<std::string>{"}", "garbage", "\xff", std::string(1, '\0'), "{}"});
      description += " | trailing bytes";
      break;
    case 3:
      text = "\xef\xbb\xbf" + text;
      description += " | UTF-8 byte order mark";
      break;
    case 4:
      text = one_of(rng, std::vector<std::string>{"", "null", "[]", "\"spmv\"", "{}", "1", "{", "{\"kernel\":}",
                                                  "{'kernel':'spmv'}", "{\"kernel\":\"spmv\",\"kernel\":1}"});
      description += " | body -> '" + text + "'";
      break;
    case 5:
      text.insert(1, "/* comment */");
      description += " | a comment";
      break;
    case 6:
      text.insert(below(rng, text.size() + 1), std::string(1, '\0'));
      description += " | a NUL";
      break;
    default:
      text.insert(below(rng, text.size() + 1), "\xc3\x28");
      description += " | invalid UTF-8 in the text";
  }
  return text;
}

}  // namespace

FuzzedBody fuzz_tune_body(const std::string& upload_id, Rng& rng) {
  const std::vector<json> bases = base_requests(upload_id);
  const size_t base = below(rng, bases.size());
  Draft d{bases[base], {}, "base " + std::to_string(base)};
  const size_t count = 1 + below(rng, 2);
  for (size_t i = 0; i < count; ++i) one_of(rng, mutations())(d, rng);
  std::string text = d.body.dump(-1, ' ', false, json::error_handler_t::replace);
  for (size_t i = 0; i < d.raw.size(); ++i) {
    const std::string marker = "\"" + raw_marker(i) + "\"";
    if (const size_t at = text.find(marker); at != std::string::npos) text.replace(at, marker.size(), d.raw[i]);
  }
  if (below(rng, 100) < 20) text = break_text(std::move(text), rng, d.description);
  return {text, d.description};
}

}  // namespace ktune::soak
