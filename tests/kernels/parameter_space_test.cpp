#include "kernels/parameter_space.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "tests/techniques/test_spaces.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

// color: red, green, blue; size: 2, 4, 8, 16; count: 1, 4, 7; flag: false, true;
// a flag needs size >= 8.
ParameterSpace toy_space() {
  ParameterSpace s;
  s.params = {Parameter::power_of_two("size", 2, 16),
              Parameter::enumeration("color", {"red", "green", "blue"}),
              Parameter::int_range("count", 1, 7, 3), Parameter::boolean("flag")};
  s.constraints = {{"flag needs size of 8 or more",
                    [](const Config& c) { return c.at("flag") == 0 || c.at("size") >= 8; }}};
  return s;
}

Config toy(int64_t color, int64_t count, int64_t flag, int64_t size) {
  return {{"color", color}, {"count", count}, {"flag", flag}, {"size", size}};
}

// Expects `f` to throw InputError whose message contains `part`.
template <typename F>
void expect_input_error(F&& f, const std::string& part) {
  try {
    f();
    FAIL() << "no InputError; expected one mentioning " << part;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(Parameter, ValuesOfEachKind) {
  EXPECT_EQ(Parameter::int_range("n", 3, 11, 4).values(), (std::vector<int64_t>{3, 7, 11}));
  EXPECT_EQ(Parameter::int_range("n", 3, 10, 4).values(), (std::vector<int64_t>{3, 7}));
  EXPECT_EQ(Parameter::power_of_two("p", 3, 40).values(), (std::vector<int64_t>{4, 8, 16, 32}));
  EXPECT_EQ(Parameter::power_of_two("p", 1, 1).values(), (std::vector<int64_t>{1}));
  EXPECT_EQ(Parameter::enumeration("e", {"a", "b"}).values(), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(Parameter::boolean("b").values(), (std::vector<int64_t>{0, 1}));
}

TEST(Parameter, AdmitsExactlyItsValues) {
  for (const Parameter& p : toy_space().params) {
    const std::vector<int64_t> values = p.values();
    for (int64_t v = -3; v <= 40; ++v) {
      const bool listed = std::find(values.begin(), values.end(), v) != values.end();
      EXPECT_EQ(p.admits(v), listed) << p.name << " " << v;
    }
  }
}

TEST(Parameter, JsonFormsPerKind) {
  const ParameterSpace s = toy_space();
  EXPECT_EQ(s.param("color").value_to_json(1), nlohmann::json("green"));
  EXPECT_EQ(s.param("flag").value_to_json(1), nlohmann::json(true));
  EXPECT_EQ(s.param("size").value_to_json(8), nlohmann::json(8));
  EXPECT_EQ(s.param("color").value_from_json("blue"), 2);
  EXPECT_EQ(s.param("flag").value_from_json(false), 0);
  EXPECT_EQ(s.param("count").value_from_json(7), 7);
  EXPECT_EQ(s.param("count").value_from_json(7.0), 7);  // integral floats are accepted
}

TEST(Parameter, JsonRefusalsNameTheParameter) {
  const ParameterSpace s = toy_space();
  expect_input_error([&] { s.param("color").value_from_json("purple"); }, "'color'");
  expect_input_error([&] { s.param("color").value_from_json(1); }, "red, green, blue");
  expect_input_error([&] { s.param("flag").value_from_json(1); }, "'flag' must be true or false");
  expect_input_error([&] { s.param("size").value_from_json(12); }, "'size' must be a power of two");
  expect_input_error([&] { s.param("size").value_from_json(32); }, "[2, 16]");
  expect_input_error([&] { s.param("count").value_from_json(2); }, "in steps of 3");
  expect_input_error([&] { s.param("count").value_from_json(4.5); }, "'count'");
  expect_input_error([&] { s.param("count").value_from_json("4"); }, "'count'");
  expect_input_error([&] { s.param("count").value_from_json(nlohmann::json::array()); }, "'count'");
  expect_input_error([&] { s.param("size").value_to_json(3); }, "'size'");
}

TEST(ParameterSpace, UnknownParameterNamesTheKnownOnes) {
  expect_input_error([] { toy_space().param("colour"); }, "known: color, count, flag, size");
}

TEST(ParameterSpace, NominalSizeIsTheProductOfRanges) {
  EXPECT_DOUBLE_EQ(toy_space().nominal_size(), 3.0 * 4 * 3 * 2);
}

// Enumeration order: parameters by name, the first name varying slowest, values increasing.
TEST(ParameterSpace, EnumeratesValidConfigsInNameOrder) {
  std::vector<Config> expected;
  for (int64_t color : {0, 1, 2}) {
    for (int64_t count : {1, 4, 7}) {
      for (int64_t flag : {0, 1}) {
        for (int64_t size : {2, 4, 8, 16}) {
          if (flag == 1 && size < 8) continue;
          expected.push_back(toy(color, count, flag, size));
        }
      }
    }
  }
  const std::vector<Config> got = toy_space().enumerate();
  EXPECT_EQ(got.size(), 3u * 3 * (4 + 2));
  EXPECT_EQ(got, expected);
  EXPECT_TRUE(std::is_sorted(got.begin(), got.end()));
}

TEST(ParameterSpace, EnumerationOrderIgnoresDeclarationOrder) {
  ParameterSpace reversed = toy_space();
  std::reverse(reversed.params.begin(), reversed.params.end());
  EXPECT_EQ(reversed.enumerate(), toy_space().enumerate());
}

TEST(ParameterSpace, EnumerationBeyondTheCapThrows) {
  const size_t valid = toy_space().enumerate().size();
  EXPECT_EQ(toy_space().enumerate(valid).size(), valid);
  EXPECT_THROW(toy_space().enumerate(valid - 1), LimitError);
}

TEST(ParameterSpace, ViolationNamesTheFirstBrokenRule) {
  const ParameterSpace s = toy_space();
  EXPECT_EQ(s.violation(toy(0, 1, 1, 8)), "");
  EXPECT_TRUE(s.valid(toy(0, 1, 0, 2)));
  EXPECT_EQ(s.violation(toy(0, 1, 1, 4)), "flag needs size of 8 or more");
  EXPECT_NE(s.violation(toy(0, 2, 0, 4)).find("'count'"), std::string::npos);
  Config missing = toy(0, 1, 0, 4);
  missing.erase("count");
  EXPECT_NE(s.violation(missing).find("missing parameter 'count'"), std::string::npos);
  Config extra = toy(0, 1, 0, 4);
  extra["shape"] = 1;
  EXPECT_NE(s.violation(extra).find("unknown parameter 'shape'"), std::string::npos);
}

TEST(ParameterSpace, JsonRoundTripOfEveryConfig) {
  const ParameterSpace s = toy_space();
  for (const Config& c : s.enumerate()) EXPECT_EQ(s.from_json(s.to_json(c)), c);
  const nlohmann::json j = s.to_json(toy(2, 4, 1, 16));
  EXPECT_EQ(j, nlohmann::json::parse(R"({"color": "blue", "count": 4, "flag": true, "size": 16})"));
}

TEST(ParameterSpace, FromJsonRefusesWithActionableMessages) {
  const ParameterSpace s = toy_space();
  expect_input_error([&] { s.from_json(nlohmann::json::array()); }, "JSON object");
  expect_input_error(
      [&] {
        s.from_json({{"color", "red"}, {"count", 1}, {"flag", true}, {"size", 4}});
      },
      "flag needs size of 8 or more");
  expect_input_error([&] { s.from_json({{"colour", "red"}}); }, "unknown parameter 'colour'");
  expect_input_error(
      [&] {
        s.from_json({{"color", "red"}, {"count", 1}, {"size", 4}, {"flag", "yes"}});
      },
      "'flag'");
  expect_input_error(
      [&] {
        s.from_json({{"color", "red"}, {"size", 4}});
      },
      "missing parameters count, flag");
}

TEST(ParameterSpace, FromJsonFillsAParameterPinnedToOneValue) {
  ParameterSpace s = toy_space();
  s.constraints.push_back({"count is 4 for blue", [](const Config& c) {
                             return c.at("color") != 2 || c.at("count") == 4;
                           }});
  s.constraints.push_back({"flag is set for blue", [](const Config& c) {
                             return c.at("color") != 2 || c.at("flag") == 1;
                           }});
  EXPECT_EQ(s.from_json({{"color", "blue"}, {"size", 8}}), toy(2, 4, 1, 8));
  // With blue and size 4 no completion is valid (blue needs a flag, a flag needs size 8).
  expect_input_error(
      [&] {
        s.from_json({{"color", "blue"}, {"size", 4}});
      },
      "no value of count, flag fits");
}

TEST(ParameterSpace, CanonicalFormIsSortedWithChoiceNames) {
  const ParameterSpace s = toy_space();
  EXPECT_EQ(s.canonical(toy(1, 7, 1, 16)), "color=green;count=7;flag=true;size=16");
  std::vector<std::string> forms;
  for (const Config& c : s.enumerate()) forms.push_back(s.canonical(c));
  std::sort(forms.begin(), forms.end());
  EXPECT_EQ(std::unique(forms.begin(), forms.end()), forms.end());
}

TEST(ParameterSpace, DescribeListsParametersAndConstraints) {
  const nlohmann::json d = toy_space().describe();
  ASSERT_EQ(d["parameters"].size(), 4u);
  const nlohmann::json& size = d["parameters"][0];
  EXPECT_EQ(size["name"], "size");
  EXPECT_EQ(size["kind"], "power_of_two");
  EXPECT_EQ(size["values"], nlohmann::json::parse("[2, 4, 8, 16]"));
  EXPECT_EQ(d["parameters"][1]["values"], nlohmann::json::parse(R"(["red", "green", "blue"])"));
  EXPECT_EQ(d["parameters"][2]["step"], 3);
  EXPECT_EQ(d["parameters"][3]["kind"], "bool");
  EXPECT_EQ(d["constraints"], nlohmann::json::parse(R"(["flag needs size of 8 or more"])"));
  EXPECT_EQ(d["nominal_size"], 72.0);
  EXPECT_EQ(d["configurations"], toy_space().enumerate().size());
}

// 10^9 nominal points and more (the search techniques' test space): nothing here may enumerate it.
using testing::huge_space;

TEST(Parameter, PositionsMatchValuesForEveryKind) {
  for (const Parameter& p : {Parameter::int_range("n", 3, 11, 4), Parameter::int_range("m", -5, 5),
                             Parameter::power_of_two("p", 3, 40), Parameter::power_of_two("q", 1, 1),
                             Parameter::enumeration("e", {"a", "b", "c"}), Parameter::boolean("b")}) {
    const std::vector<int64_t> values = p.values();
    ASSERT_EQ(p.count(), static_cast<int64_t>(values.size())) << p.name;
    for (size_t i = 0; i < values.size(); ++i) {
      EXPECT_EQ(p.value_at(static_cast<int64_t>(i)), values[i]) << p.name;
      EXPECT_EQ(p.index_of(values[i]), static_cast<int64_t>(i)) << p.name;
    }
    EXPECT_EQ(p.value_at(-3), values.front());
    EXPECT_EQ(p.value_at(p.count() + 7), values.back());
  }
  EXPECT_EQ(Parameter::power_of_two("p", 1, int64_t{1} << 40).count(), 41);
  EXPECT_EQ(Parameter::int_range("big", 0, 999999999).count(), 1000000000);
}

TEST(ParameterSpace, HugeSpaceIsSizedWithoutEnumerating) {
  const ParameterSpace s = huge_space();
  EXPECT_DOUBLE_EQ(s.nominal_size(), 1e9 * 21 * 3 * 2);
  EXPECT_THROW(s.enumerate(), LimitError);  // refused at once, not after a walk of 10^11 points
  const nlohmann::json d = s.describe();
  EXPECT_TRUE(d["configurations"].is_null());
  EXPECT_EQ(d["parameters"][0]["count"], 1000);
  EXPECT_FALSE(d["parameters"][0].contains("values"));
  EXPECT_EQ(d["parameters"][3]["values"].size(), 21u);
}

TEST(ParameterSpace, RandomValidSamplesTheHugeSpaceUniformly) {
  const ParameterSpace s = huge_space();
  SpaceRng rng(7);
  std::set<std::string> distinct;
  int low_x = 0, mode_c = 0;
  const int n = 4000;
  for (int i = 0; i < n; ++i) {
    const Config c = s.random_valid(rng);
    ASSERT_TRUE(s.valid(c)) << s.violation(c);
    distinct.insert(s.canonical(c));
    low_x += c.at("x") < 500;
    mode_c += c.at("mode") == 2;
  }
  EXPECT_EQ(distinct.size(), static_cast<size_t>(n));
  // Under x <= y, x is below 500 in 3/4 of the valid points; mode is unconstrained.
  EXPECT_NEAR(low_x / double(n), 0.75, 0.03);
  EXPECT_NEAR(mode_c / double(n), 1.0 / 3, 0.03);
  SpaceRng first(7), second(7);
  EXPECT_EQ(s.random_valid(first), s.random_valid(second));  // a seed fixes the draw
}

TEST(ParameterSpace, RandomValidGivesUpWithTheBlockingConstraint) {
  ParameterSpace s = huge_space();
  s.constraints.push_back({"x + y must be 1999 exactly", [](const Config& c) { return c.at("x") + c.at("y") == 1999; }});
  SpaceRng rng(1);
  try {
    s.random_valid(rng, 2000);
    FAIL() << "no LimitError";
  } catch (const LimitError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("2000 random draws"), std::string::npos) << what;
    EXPECT_NE(what.find("x + y must be 1999 exactly"), std::string::npos) << what;
  }
}

TEST(ParameterSpace, IndicesRoundTripAndNeighboursStepOnePosition) {
  const ParameterSpace s = huge_space();
  const Config c = {{"x", 10}, {"y", 10}, {"z", 0}, {"tile", 1024}, {"mode", 1}, {"flag", 0}};
  ASSERT_TRUE(s.valid(c));
  EXPECT_EQ(s.to_indices(c), (std::vector<int64_t>{10, 10, 0, 10, 1, 0}));
  EXPECT_EQ(s.from_indices(s.to_indices(c)), c);
  const std::vector<Config> next = s.neighbours(c);
  std::set<std::string> got;
  for (const Config& n : next) {
    EXPECT_TRUE(s.valid(n));
    got.insert(s.canonical(n));
  }
  // x: 9 (11 breaks x <= y); y: 11 (9 breaks it); z: 2 (0 is its lowest); tile by exponent:
  // 512, 2048; mode: the two other choices; flag: true.
  EXPECT_EQ(got.size(), 8u);
  auto with = [&](const std::string& name, int64_t v) {
    Config n = c;
    n[name] = v;
    return s.canonical(n);
  };
  for (const auto& key : {with("x", 9), with("y", 11), with("z", 2), with("tile", 512),
                          with("tile", 2048), with("mode", 0), with("mode", 2), with("flag", 1)}) {
    EXPECT_TRUE(got.count(key)) << key;
  }
}

TEST(ParameterSpace, HardwareViolationChecksDeviceLimitsThenFamilyRules) {
  ParameterSpace s = toy_space();
  s.hardware_constraints = {{"flag kernels must not spill past 128 registers",
                             [](const Config& c, const KernelResources& r, const DeviceLimits&) {
                               return c.at("flag") == 0 || r.registers_per_thread <= 128;
                             }}};
  const Config flagged = toy(0, 1, 1, 8);
  KernelResources ok{64, 4096, 256};
  EXPECT_EQ(s.hardware_violation(flagged, ok), "");
  EXPECT_NE(s.hardware_violation(flagged, {64, 4096, 2048}).find("threads per block"), std::string::npos);
  EXPECT_NE(s.hardware_violation(flagged, {256, 0, 32}).find("registers per thread"), std::string::npos);
  // 129 registers round up to 136 per thread: 512 threads need 69632 > 65536.
  EXPECT_NE(s.hardware_violation(toy(0, 1, 0, 8), {129, 0, 512}).find("registers of a block"), std::string::npos);
  EXPECT_EQ(s.hardware_violation(toy(0, 1, 0, 8), {128, 0, 512}), "");
  EXPECT_NE(s.hardware_violation(flagged, {64, 300000, 256}).find("shared memory"), std::string::npos);
  DeviceLimits small;
  small.shared_bytes_per_block = 49152;
  EXPECT_NE(s.hardware_violation(flagged, {64, 65536, 256}, small).find("shared memory"), std::string::npos);
  EXPECT_EQ(s.hardware_violation(flagged, {160, 0, 128}), "flag kernels must not spill past 128 registers");
  EXPECT_EQ(s.hardware_violation(toy(0, 1, 0, 8), {160, 0, 128}), "");
  EXPECT_EQ(s.describe()["hardware_constraints"][0], "flag kernels must not spill past 128 registers");
}

}  // namespace
}  // namespace ktune

namespace ktune {
namespace {

using testing::huge_space;

TEST(ParameterSpace, SamplesAreEveryConfigurationOfASmallSpaceAndADrawOfAHugeOne) {
  const ParameterSpace small = toy_space();
  const std::vector<Config> all = small.enumerate();
  SpaceRng rng(3);
  EXPECT_EQ(small.sample(rng, all.size() + 10), all);
  const std::vector<Config> some = small.sample(rng, 3);
  ASSERT_EQ(some.size(), 3u);
  for (const Config& c : some) EXPECT_TRUE(small.valid(c));
  EXPECT_EQ(std::set<Config>(some.begin(), some.end()).size(), 3u);

  const ParameterSpace huge = huge_space();
  ASSERT_GT(huge.nominal_size(), 1e9);
  EXPECT_THROW(huge.enumerate(), LimitError);
  SpaceRng a(5), b(5);
  const std::vector<Config> drawn = huge.sample(a, 200);
  EXPECT_EQ(drawn.size(), 200u);
  EXPECT_EQ(drawn, huge.sample(b, 200)) << "a seed fixes the sample";
  for (const Config& c : drawn) EXPECT_TRUE(huge.valid(c));
}

TEST(ParameterSpace, FirstValidIsTheFirstOfTheEnumeration) {
  const ParameterSpace small = toy_space();
  EXPECT_EQ(small.first_valid(), small.enumerate().front());
  EXPECT_TRUE(huge_space().valid(huge_space().first_valid()));
}

TEST(ParameterSpace, CanonicalTextReadsBackAsTheSameConfiguration) {
  const ParameterSpace s = toy_space();
  for (const Config& c : s.enumerate()) EXPECT_EQ(s.from_canonical(s.canonical(c)), c) << s.canonical(c);
  expect_input_error([&] { s.from_canonical("color=blue;count=4;flag=true;size=4"); }, "flag needs size");
  expect_input_error([&] { s.from_canonical("color=blue;count=four;flag=false;size=4"); }, "count");
  expect_input_error([&] { s.from_canonical("color=blue;count=4;flag=false"); }, "size");
  expect_input_error([&] { s.from_canonical("color=blue;count"); }, "no name=value");
}

}  // namespace
}  // namespace ktune
