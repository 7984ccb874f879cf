#include "bench/soak/config_query_mutations.h"

#include <vector>

#include "bench/soak/random_pick.h"

namespace ktune::soak {
namespace {

using Rng = std::mt19937_64;

const std::vector<std::string> kBadValues = {
    "%FF",       "%FF%FE",     "%",        "%G1", "%0",   "%00",     "spmv%00", "%C0%AF",
    "%ED%A0%80", "\xff",       "\xc3\x28", "",    "SPMV", "spmv%20", "+",       "%2B",
    "spmv;drop", "..%2F..%2F", "%25",      "%%%", "\x01", "f128",    "nope",    std::string(3000, 'x')};

const std::vector<std::string> kBadFeatures = {
    "nan,inf", "1e999", ",,,", "a,b", "%FF", "-inf,1", "1,2,3", "0x10", "1e-400", std::string(4000, '1'), [] {
      std::string many;
      for (int i = 0; i < 2000; ++i) many += "1,";
      return many + "1";
    }()};

}  // namespace

FuzzedBody fuzz_config_query(const std::string& signature, Rng& rng) {
  std::vector<std::pair<std::string, std::string>> params = {
      {"kernel", "spmv"}, {"signature", signature}, {"dtype", "f32"}};
  std::string description;
  const size_t count = 1 + below(rng, 2);
  for (size_t i = 0; i < count; ++i) {
    switch (below(rng, 7)) {
      case 0:
      case 1: {
        auto& [name, value] = params[below(rng, params.size())];
        value = one_of(rng, kBadValues);
        description += " | " + name + "=" + (value.size() > 20 ? value.substr(0, 20) + "..." : value);
        break;
      }
      case 2: {
        const size_t at = below(rng, params.size());
        description += " | no " + params[at].first;
        params.erase(params.begin() + static_cast<long>(at));
        break;
      }
      case 3:
        params.push_back({"features", one_of(rng, kBadFeatures)});
        description += " | features=" + params.back().second.substr(0, 20);
        break;
      case 4:
        params.push_back(
            {one_of(rng, std::vector<std::string>{"kernel", "device", "%FF", "", "format"}), one_of(rng, kBadValues)});
        description += " | extra " + params.back().first + "=" + params.back().second.substr(0, 20);
        break;
      case 5: {
        const size_t length = one_of(rng, std::vector<size_t>{65, 1000, 7000, 20000});
        params[1].second = std::string(length, 'a');
        description += " | signature of " + std::to_string(length) + " characters";
        break;
      }
      default:
        params.push_back({"device", one_of(rng, kBadValues)});
        description += " | device=" + params.back().second.substr(0, 20);
    }
  }
  std::string path = "/v1/configs?";
  for (size_t i = 0; i < params.size(); ++i) path += (i ? "&" : "") + params[i].first + "=" + params[i].second;
  if (below(rng, 10) == 0) {
    path += one_of(rng, std::vector<std::string>{"&", "&&&", "&=", "#frag", "?x=1", "&kernel"});
    description += " | odd tail";
  }
  return {path, description.empty() ? "valid" : description.substr(3)};
}

}  // namespace ktune::soak
