// The GEMM family without a GPU: its problem's refusals, the decompositions' cover of the
// iteration space, the sampled reference and its check, the space, the cuBLAS argument mapping.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

#include "kernels/gemm/gemm_check.h"
#include "kernels/gemm/gemm_config.h"
#include "kernels/gemm/gemm_estimate.h"
#include "kernels/gemm/gemm_family.h"
#include "kernels/gemm/gemm_wgmma_call.h"
#include "kernels/gemm/gemm_operands.h"
#include "kernels/gemm/gemm_reference.h"
#include "kernels/gemm/gemm_schedule.h"
#include "kernels/gemm/gemm_staging.h"
#include "kernels/gemm/gemm_vendor.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

const GemmFamily family;
const Precision kF32 = Precision::uniform(Dtype::F32);

Problem problem(nlohmann::json params, Precision p = kF32) { return make_problem(family, params, p); }

TEST(GemmFamily, RefusesBadShapesLayoutsAndDtypesBeforeAnythingIsAllocated) {
  EXPECT_THROW(problem({{"m", 0}}), InputError);
  EXPECT_THROW(problem({{"n", -5}}), InputError);
  EXPECT_THROW(problem({{"k", int64_t{1} << 21}}), InputError);
  EXPECT_THROW(problem({{"layout", "nx"}}), InputError);
  EXPECT_THROW(problem({{"m", 64}}, Precision::uniform(Dtype::I32)), InputError);
  EXPECT_THROW(problem({{"m", 64}}, {Dtype::BF16, Dtype::F32, Dtype::BF16}), InputError);
  const Workload dense{WorkloadKind::Dense, {}};
  const int64_t big = int64_t{1} << 20;
  EXPECT_THROW(family.check_problem(dense, problem({{"m", big}, {"n", big}, {"k", 64}})), LimitError);
  EXPECT_NO_THROW(family.check_problem(dense, problem({{"m", 8192}, {"n", 8192}, {"k", 8192}})));
}

TEST(GemmFamily, OneTypeNamesTheFamilysPrecisionWithThatInput) {
  EXPECT_EQ(to_string(problem({}, Precision::uniform(Dtype::BF16)).precision), "bf16:f32:f32");
  EXPECT_EQ(to_string(problem({}, Precision::uniform(Dtype::F16)).precision), "f16:f32:f32");
  EXPECT_EQ(to_string(problem({}, Precision::uniform(Dtype::F64)).precision), "f64");
  EXPECT_EQ(to_string(problem({}, precision_from_string("tf32")).precision), "tf32:f32:f32");
  EXPECT_EQ(problem({}).key(), R"({"batch":1,"k":128,"layout":"nn","m":128,"n":128})");
}

GemmConfig config_of(GemmDecomposition d, int64_t bm, int64_t bn, int64_t bk, int64_t split, int64_t grid) {
  GemmConfig c;
  c.decomposition = d;
  c.bm = bm;
  c.bn = bn;
  c.bk = bk;
  c.split = split;
  c.sk_grid = grid;
  return c;
}

// Every decomposition hands out each iteration exactly once, in order, and no unit is idle.
TEST(GemmSchedule, EveryDecompositionCoversTheIterationsOnceWithoutIdleUnits) {
  GemmShape s;
  s.m = 33;
  s.n = 47;
  s.k = 650;
  s.batch = 3;
  for (auto d : {GemmDecomposition::DataParallel, GemmDecomposition::SplitK, GemmDecomposition::StreamK,
                 GemmDecomposition::Hybrid, GemmDecomposition::Persistent})
    for (int64_t grid : {4, 12, 132, 528})
      for (int64_t split : {2, 16}) {
        const GemmSchedule g = GemmSchedule::of(s, config_of(d, 16, 16, 8, split, grid));
        int64_t next = 0;
        for (int64_t c = 0; c < g.units; ++c) {
          int64_t b, e;
          g.cta_range(c, &b, &e);
          ASSERT_EQ(b, next) << static_cast<int>(d) << " grid " << grid << " cta " << c;
          ASSERT_LT(b, e) << static_cast<int>(d) << " grid " << grid << " cta " << c;
          next = e;
        }
        EXPECT_EQ(next, g.tiles * g.ipt);
      }
}

// A persistent grid is sk_grid CTAs (no more than there are tiles) taking whole tiles in turn:
// no partials, so no workspace.
TEST(GemmSchedule, PersistentCtasTakeTheDataParallelTilesInTurn) {
  GemmShape s;
  s.m = s.n = 4096;
  s.k = 512;
  const GemmConfig c = config_of(GemmDecomposition::Persistent, 128, 128, 64, 1, 132);
  const GemmSchedule g = GemmSchedule::of(s, c);
  EXPECT_EQ(g.units, g.tiles);
  EXPECT_EQ(g.tiles, 32 * 32);
  EXPECT_EQ(g.grid, 132);
  EXPECT_EQ(g.workspace_elements(c), 0.0);
  for (int64_t u : {0, 131, 132, 1023}) {
    int64_t b, e;
    g.cta_range(u, &b, &e);
    EXPECT_EQ(b, u * g.ipt);
    EXPECT_EQ(e, (u + 1) * g.ipt);
  }
  s.m = s.n = 256;  // 4 tiles: 4 CTAs
  EXPECT_EQ(GemmSchedule::of(s, c).grid, 4);
}

TEST(GemmSchedule, HybridStreamsOneToTwoTilesACtaAndTheRestDataParallel) {
  GemmShape s;
  s.m = s.n = 2048;
  s.k = 512;
  const GemmSchedule g = GemmSchedule::of(s, config_of(GemmDecomposition::Hybrid, 64, 64, 16, 1, 132));
  EXPECT_EQ(g.tiles, 1024);
  EXPECT_EQ(g.sk_tiles, 1024 % 132 + 132);
  EXPECT_EQ(g.grid, 132 + (1024 - g.sk_tiles));
}

TEST(GemmReference, TheSampleIsSortedDistinctInsideCAndHoldsTheCorners) {
  GemmShape s;
  s.m = 300;
  s.n = 200;
  s.k = 5;
  s.batch = 2;
  const std::vector<int64_t> idx = gemm_sample_indices(s);
  EXPECT_GE(idx.size(), kGemmSpreadSamples);
  EXPECT_TRUE(std::is_sorted(idx.begin(), idx.end()));
  EXPECT_EQ(std::set<int64_t>(idx.begin(), idx.end()).size(), idx.size());
  EXPECT_EQ(idx.front(), 0);
  EXPECT_EQ(idx.back(), 2 * 300 * 200 - 1);
  EXPECT_TRUE(std::count(idx.begin(), idx.end(), 199));  // first row, last column
  s.m = s.n = 4;
  EXPECT_EQ(gemm_sample_indices(s).size(), 2u * 16);  // small: every element
}

std::string full_c(const GemmShape& s) {
  std::string bytes(static_cast<size_t>(s.c_elements()) * 4, '\0');
  for (int64_t i = 0; i < static_cast<int64_t>(s.c_elements()); ++i) {
    const float v = static_cast<float>(gemm_reference_at(s, i).value);
    std::memcpy(&bytes[static_cast<size_t>(i) * 4], &v, 4);
  }
  return bytes;
}

TEST(GemmCheck, PassesTheProductAndFailsAMissingTermOrAnUnwrittenElement) {
  for (const char* layout : {"nn", "tt"}) {
    const Problem p = problem({{"m", 40}, {"n", 30}, {"k", 700}, {"layout", layout}});
    const GemmShape s = GemmShape::of(p);
    const Workload dense{WorkloadKind::Dense, {}};
    const LaunchPlan plan = family.prepare(dense, p, family.space(p).first_valid());
    const std::vector<double> expected = family.reference(dense, p).at("c");
    ASSERT_EQ(plan.outputs.at(0).reference_elements(), expected.size());
    CheckData data;
    for (const auto& [name, bytes] : plan.check_data) data[name] = bytes.view();
    std::string got = full_c(s);
    EXPECT_TRUE(family.verify(p, plan.outputs[0], got, expected, data).ok);
    // A sampled element without its last product.
    int64_t at_index;
    std::memcpy(&at_index, plan.check_data.at("sample_index").data() + 5 * sizeof at_index, sizeof at_index);
    const size_t at = static_cast<size_t>(at_index);
    const int64_t row = at_index / 30, col = at_index % 30;
    float v;
    std::memcpy(&v, &got[at * 4], 4);
    std::string wrong = got;
    const float missing = static_cast<float>(v - gemm_input_value(GemmOperand::A, s.a_index(0, row, 699)) *
                                                    gemm_input_value(GemmOperand::B, s.b_index(0, 699, col)));
    ASSERT_NE(missing, v);
    std::memcpy(&wrong[at * 4], &missing, 4);
    EXPECT_FALSE(family.verify(p, plan.outputs[0], wrong, expected, data).ok);
    const float nan = std::nanf("");
    std::memcpy(&wrong[at * 4], &nan, 4);
    EXPECT_FALSE(family.verify(p, plan.outputs[0], wrong, expected, data).ok);
  }
}

// tf32 reads its inputs with 10 mantissa bits: an error the truncation of both factors allows
// passes under tf32 and fails under f32; twice that fails under both.
TEST(GemmCheck, Tf32AllowsItsInputsTruncationAndNoMore) {
  const Problem f32 = problem({{"m", 40}, {"n", 30}, {"k", 700}});
  const Problem tf32 = problem({{"m", 40}, {"n", 30}, {"k", 700}}, precision_from_string("tf32"));
  const GemmShape s = GemmShape::of(f32);
  const Workload dense{WorkloadKind::Dense, {}};
  const LaunchPlan plan = family.prepare(dense, tf32, family.space(tf32).first_valid());
  const std::vector<double> expected = family.reference(dense, tf32).at("c");
  CheckData data;
  for (const auto& [name, bytes] : plan.check_data) data[name] = bytes.view();
  const std::string exact = full_c(s);
  EXPECT_TRUE(family.verify(tf32, plan.outputs[0], exact, expected, data).ok);
  int64_t at;
  std::memcpy(&at, plan.check_data.at("sample_index").data() + 5 * sizeof at, sizeof at);
  const GemmSampleValue ref = gemm_reference_at(s, at);
  auto off_by = [&](double units) {
    std::string got = exact;
    const float v = static_cast<float>(ref.value + units * std::ldexp(1.0, -10) * ref.magnitude);
    std::memcpy(&got[static_cast<size_t>(at) * 4], &v, 4);
    return got;
  };
  EXPECT_TRUE(family.verify(tf32, plan.outputs[0], off_by(1.5), expected, data).ok);
  EXPECT_FALSE(family.verify(f32, plan.outputs[0], off_by(1.5), expected, data).ok);
  EXPECT_FALSE(family.verify(tf32, plan.outputs[0], off_by(-3.0), expected, data).ok);
}

TEST(GemmSpace, IsTooLargeToListAndSampledValid) {
  for (const Precision& p : family.precisions()) {
    const ParameterSpace space = family.space(problem({{"m", 384}, {"n", 384}, {"k", 16384}}, p));
    EXPECT_GE(space.nominal_size(), 1e6) << to_string(p);
    SpaceRng rng(3);
    const std::vector<Config> configs = space.sample(rng, 40);
    EXPECT_EQ(configs.size(), 40u) << to_string(p);
    for (const Config& c : configs) EXPECT_TRUE(space.valid(c));
  }
}

TEST(GemmEstimate, TheGridSizeModelSpreadsALongKOverTheDeviceAndKeepsManyTilesDataParallel) {
  GemmConfig c = config_of(GemmDecomposition::StreamK, 64, 64, 32, 1, 132);
  c.kernel = GemmKernel::Tensor;
  c.tm = c.tn = 32;
  const Precision bf16{Dtype::BF16, Dtype::F32, Dtype::F32};
  GemmShape skinny;
  skinny.m = skinny.n = 384;
  skinny.k = 16384;  // 36 tiles of 512 iterations
  EXPECT_GT(preferred_sk_grid(skinny, c, bf16), 36);
  // The first model ranks Stream-K above data-parallel there: 36 CTAs leave most SMs idle.
  const WorkEstimate sk = estimate_gemm(skinny, c, bf16);
  c.decomposition = GemmDecomposition::DataParallel;
  const WorkEstimate dp = estimate_gemm(skinny, c, bf16);
  EXPECT_LT(*std::max_element(sk.warp_work.begin(), sk.warp_work.end()),
            *std::max_element(dp.warp_work.begin(), dp.warp_work.end()));
}

TEST(GemmVendor, CublasSeesTheRowMajorProductAsTheColumnMajorTranspose) {
  struct Case {
    const char* layout;
    bool t_first, t_second;
    int64_t ld_first, ld_second;
  };
  // m = 10, n = 20, k = 30: cuBLAS's first operand is B.
  for (const Case& c : {Case{"nn", false, false, 20, 30}, Case{"nt", true, false, 30, 30},
                        Case{"tn", false, true, 20, 10}, Case{"tt", true, true, 30, 10}}) {
    const GemmShape s = GemmShape::of(problem({{"m", 10}, {"n", 20}, {"k", 30}, {"batch", 2}, {"layout", c.layout}}));
    const nlohmann::json a = cublas_gemm_args(s);
    EXPECT_EQ(a["m"], 20) << c.layout;
    EXPECT_EQ(a["n"], 10) << c.layout;
    EXPECT_EQ(a["transpose_first"], c.t_first) << c.layout;
    EXPECT_EQ(a["transpose_second"], c.t_second) << c.layout;
    EXPECT_EQ(a["ld_first"], c.ld_first) << c.layout;
    EXPECT_EQ(a["ld_second"], c.ld_second) << c.layout;
    EXPECT_EQ(a["ldc"], 20) << c.layout;
    EXPECT_EQ(a["first"], "b");
    EXPECT_EQ(a["second"], "a");
  }
  const std::vector<VendorCall> calls = family.vendor_calls({WorkloadKind::Dense, {}}, problem({}));
  ASSERT_EQ(calls.size(), 1u + kGemmLtCandidates);
  EXPECT_EQ(calls[0].name, "cublas_gemm");
  EXPECT_EQ(calls[1].name, "cublaslt_gemm");
}

}  // namespace
}  // namespace ktune

namespace ktune {
namespace {

TEST(GemmWgmmaCall, NamesEveryAccumulatorOfItsWidthAndRefusesWhatWgmmaLacks) {
  for (const int64_t n : {64, 128, 256}) {
    const std::string code = wgmma_call_source(n, Dtype::BF16);
    EXPECT_NE(code.find("wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + "k16.f32.bf16.bf16"), std::string::npos);
    size_t operands = 0;
    for (size_t at = code.find("\"+f\""); at != std::string::npos; at = code.find("\"+f\"", at + 1)) ++operands;
    EXPECT_EQ(operands, static_cast<size_t>(n / 2)) << n;
    // The descriptors follow the accumulators, then the scale-d predicate's register.
    EXPECT_NE(code.find("}, %" + std::to_string(n / 2) + ", %" + std::to_string(n / 2 + 1) + ", p, 1, 1, 0, 0;"),
              std::string::npos);
  }
  EXPECT_NE(wgmma_call_source(64, Dtype::F16).find(".f32.f16.f16"), std::string::npos);
  // tf32: 8 k a step, and no transpose flags (k-major only).
  const std::string tf32 = wgmma_call_source(128, Dtype::TF32);
  EXPECT_NE(tf32.find("m64n128k8.f32.tf32.tf32"), std::string::npos) << tf32;
  EXPECT_NE(tf32.find("}, %64, %65, p, 1, 1;"), std::string::npos) << tf32;
  EXPECT_THROW(wgmma_call_source(100, Dtype::BF16), std::invalid_argument);
  EXPECT_THROW(wgmma_call_source(512, Dtype::BF16), std::invalid_argument);
  EXPECT_THROW(wgmma_call_source(64, Dtype::F32), std::invalid_argument);
}

}  // namespace
}  // namespace ktune

namespace ktune {
namespace {

// Why the space refuses a configuration given as JSON; empty when it takes it.
std::string refusal(const ParameterSpace& space, const nlohmann::json& parameters) {
  try {
    space.from_json(parameters);
    return "";
  } catch (const InputError& e) {
    return e.what();
  }
}

const nlohmann::json kWgmma = {{"mma", "wgmma"}, {"decomposition", "data_parallel"}, {"bm", 128}, {"bn", 256},
                               {"bk", 64}, {"tm", 64}, {"tn", 256}, {"stages", 4}, {"split", 1},
                               {"sk_grid", kGemmSms}, {"raster", 1}, {"loader", "cp_async"}, {"cluster", 1}};

Problem bf16_problem(const GemmFamily& gemm, const char* layout, int64_t k, int64_t batch = 1) {
  return make_problem(gemm, {{"m", 200}, {"n", 136}, {"k", k}, {"batch", batch}, {"layout", layout}},
                      {Dtype::BF16, Dtype::F32, Dtype::F32});
}

TEST(GemmSpace, WgmmaTakesEveryLayoutAndKButNotAShallowRingOrTooManyAccumulators) {
  const GemmFamily gemm;
  for (const auto& [layout, k] : {std::pair<const char*, int64_t>{"nt", 256}, {"nn", 256}, {"tn", 256}, {"tt", 256},
                                  {"nt", 253}})
    EXPECT_EQ(refusal(gemm.space(bf16_problem(gemm, layout, k)), kWgmma), "") << layout << " k=" << k;
  // A ring of two stages leaves no slice loading while one lands.
  nlohmann::json shallow = kWgmma;
  shallow["stages"] = 2;
  EXPECT_NE(refusal(gemm.space(bf16_problem(gemm, "nt", 256)), shallow).find("at least 3"), std::string::npos);
  // The warpgroups' accumulators fit 128 registers: one warpgroup of 128 x 256 does not.
  nlohmann::json wide = kWgmma;
  wide["tm"] = 128;
  EXPECT_NE(refusal(gemm.space(bf16_problem(gemm, "nt", 256)), wide).find("registers"), std::string::npos);
}

// The product reads both operands k-major from 16-byte aligned rows: an operand stored otherwise
// is copied so first (its own launch, into its own buffer of k rounded up to 8), and the product's
// k is that padded k; the rest read the caller's buffers as they are.
TEST(GemmStaging, CopiesExactlyTheOperandsNotKMajorWithAlignedRowsBeforeTheProduct) {
  const GemmFamily gemm;
  const Workload dense{WorkloadKind::Dense, {}};
  struct Case {
    const char* layout;
    int64_t k;
    std::vector<std::string> staged;  // the buffers the copies write, in launch order
    int64_t product_k;
  };
  for (const Case& c : {Case{"nt", 256, {}, 256}, Case{"nn", 256, {"b_k_major"}, 256},
                        Case{"tn", 256, {"a_k_major", "b_k_major"}, 256}, Case{"tt", 256, {"a_k_major"}, 256},
                        Case{"nt", 253, {"a_k_major", "b_k_major"}, 256}}) {
    SCOPED_TRACE(std::string(c.layout) + " k=" + std::to_string(c.k));
    const Problem p = bf16_problem(gemm, c.layout, c.k, 3);
    const Config config = gemm.space(p).from_json(kWgmma);
    const LaunchPlan plan = gemm.prepare(dense, p, config);
    ASSERT_EQ(plan.steps.size(), c.staged.size() + 1);
    for (size_t i = 0; i < c.staged.size(); ++i) {
      const LaunchStep& copy = plan.steps[i];
      EXPECT_EQ(copy.entry, "gemm_stage_k_major");
      EXPECT_EQ(copy.args.at(1).buffer, c.staged[i]);
      const int64_t rows = c.staged[i] == "a_k_major" ? 200 : 136;
      EXPECT_EQ(copy.grid.x, static_cast<uint32_t>((c.product_k + 63) / 64));  // 64 x 64 tiles
      EXPECT_EQ(copy.grid.y, static_cast<uint32_t>((rows + 63) / 64));
      EXPECT_EQ(copy.grid.z, 3u);
      ASSERT_NE(plan.buffer(c.staged[i]), nullptr);
      EXPECT_EQ(plan.buffer(c.staged[i])->size, static_cast<size_t>(3 * rows * c.product_k * 2));
    }
    const LaunchStep& product = plan.steps.back();
    EXPECT_EQ(product.entry, "gemm_wgmma");
    EXPECT_EQ(std::get<int32_t>(product.args.at(2).scalar), c.product_k);
    const bool a_staged = std::count(c.staged.begin(), c.staged.end(), "a_k_major") > 0;
    const bool b_staged = std::count(c.staged.begin(), c.staged.end(), "b_k_major") > 0;
    EXPECT_EQ(product.args.at(14).buffer, a_staged ? "a_k_major" : "a");
    EXPECT_EQ(product.args.at(15).buffer, b_staged ? "b_k_major" : "b");
    // The answer's launches are the plan's, and the source holds the copy's entry where it runs.
    EXPECT_EQ(gemm.launches(dense, p, config).size(), plan.steps.size());
    const std::vector<std::string> entries = gemm.source(p, config).entries;
    EXPECT_EQ(std::count(entries.begin(), entries.end(), "gemm_stage_k_major"), c.staged.empty() ? 0 : 1);
  }
  // mma.sync reads every layout itself: nothing is staged.
  nlohmann::json sync = kWgmma;
  sync["mma"] = "sync";
  sync["bn"] = 128;
  sync["tm"] = 32;
  sync["tn"] = 64;
  const Problem nn = bf16_problem(gemm, "nn", 253);
  EXPECT_EQ(gemm.prepare(dense, nn, gemm.space(nn).from_json(sync)).steps.size(), 1u);
}

// Fixed split-K stores each part as a copy of C in the workspace and adds the copies in a launch
// of its own, after the product; Stream-K keeps its in-kernel fix-up and its counters.
TEST(GemmSchedule, SplitKPartsAreAddedByALaunchOfTheirOwn) {
  const GemmFamily gemm;
  const Workload dense{WorkloadKind::Dense, {}};
  const Problem p = problem({{"m", 100}, {"n", 70}, {"k", 512}, {"batch", 2}});
  nlohmann::json split = {{"mma", "fma"}, {"decomposition", "split_k"}, {"bm", 32}, {"bn", 32}, {"bk", 16},
                          {"tm", 4},      {"tn", 4},                    {"stages", 2}, {"split", 4}, {"sk_grid", kGemmSms},
                          {"raster", 1},  {"loader", "cp_async"},       {"cluster", 1}};
  const LaunchPlan plan = gemm.prepare(dense, p, gemm.space(p).from_json(split));
  ASSERT_EQ(plan.steps.size(), 2u);
  const LaunchStep& sum = plan.steps.back();
  EXPECT_EQ(sum.entry, "gemm_split_reduce");
  EXPECT_EQ(sum.args.at(0).buffer, "workspace");
  EXPECT_EQ(sum.args.at(1).buffer, "c");
  EXPECT_EQ(std::get<int64_t>(sum.args.at(2).scalar), 2 * 100 * 70);
  EXPECT_EQ(std::get<int32_t>(sum.args.at(3).scalar), 4);
  // Four copies of C's tiles (4 x 3 tiles of 32 x 32, two batches), in f32.
  EXPECT_EQ(plan.buffer("workspace")->size, static_cast<size_t>(4 * 2 * 4 * 3 * 32 * 32 * 4));
  EXPECT_EQ(plan.buffer("counters")->size, sizeof(int32_t));
  EXPECT_EQ(gemm.estimate(dense, p, gemm.space(p).from_json(split)).launches, 2);
  const std::vector<std::string> entries = gemm.source(p, gemm.space(p).from_json(split)).entries;
  EXPECT_EQ(entries, (std::vector<std::string>{"gemm_simt", "gemm_split_reduce"}));

  nlohmann::json stream = split;
  stream["decomposition"] = "stream_k";
  stream["split"] = 1;
  stream["sk_grid"] = 8;
  const LaunchPlan streamed = gemm.prepare(dense, p, gemm.space(p).from_json(stream));
  EXPECT_EQ(streamed.steps.size(), 1u);
  EXPECT_EQ(streamed.buffer("counters")->size, 2 * 4 * 3 * sizeof(int32_t));
}

// The walk moves split-K's parts by factors of 2 (from its start's 4), and never gives a
// configuration of another decomposition a split.
TEST(GemmWalk, SplitKsPartsDoubleAndHalve) {
  const GemmFamily gemm;
  const Problem p = bf16_problem(gemm, "nt", 16384);
  const CanonicalMoves moves = gemm.canonical_moves(p);
  auto direction = [&](const std::string& name) {
    for (const CanonicalDirection& d : moves.directions)
      if (d.name == name) return d.step;
    ADD_FAILURE() << name;
    return std::function<std::optional<Config>(const Config&)>{};
  };
  int split_starts = 0;
  for (const Config& start : moves.starts) {
    const bool split_k = static_cast<GemmDecomposition>(start.at("decomposition")) == GemmDecomposition::SplitK;
    const std::optional<Config> up = direction("split")(start), down = direction("split_down")(start);
    if (!split_k) {
      EXPECT_FALSE(up || down);
      continue;
    }
    ++split_starts;
    ASSERT_TRUE(up && down);
    EXPECT_EQ(up->at("split"), 8);
    EXPECT_EQ(down->at("split"), 2);
    EXPECT_FALSE(direction("split_down")(*down));  // one part is not split-K
  }
  EXPECT_GE(split_starts, 1);
}

// A tensor-core CTA keeps its ring's slices in flight, which the first model's Little's law counts
// in loads of a warp's 512 bytes: 128 x 128 x 64 bf16 slices, three in flight over 8 warps, are 24.
TEST(GemmEstimate, ARingKeepsItsSlicesInFlight) {
  const GemmFamily gemm;
  const Workload dense{WorkloadKind::Dense, {}};
  const Problem p = bf16_problem(gemm, "nt", 4096);
  nlohmann::json ring = kWgmma;
  ring["bn"] = 128;
  ring["tn"] = 128;  // two warpgroups of 64 x 128
  ring["loader"] = "tma";
  EXPECT_DOUBLE_EQ(gemm.estimate(dense, p, gemm.space(p).from_json(ring)).loads_in_flight, 3.0 * 256 * 64 * 2 / 8 / 512);
  ring["stages"] = 3;
  EXPECT_DOUBLE_EQ(gemm.estimate(dense, p, gemm.space(p).from_json(ring)).loads_in_flight, 2.0 * 256 * 64 * 2 / 8 / 512);
}

// The first model charges the copies before the product: every CTA waits for them.
TEST(GemmStaging, TheFirstModelChargesTheCopiesAndTheirLaunches) {
  const GemmFamily gemm;
  const Workload dense{WorkloadKind::Dense, {}};
  const Problem nt = bf16_problem(gemm, "nt", 4096), tn = bf16_problem(gemm, "tn", 4096);
  const WorkEstimate plain = gemm.estimate(dense, nt, gemm.space(nt).from_json(kWgmma));
  const WorkEstimate staged = gemm.estimate(dense, tn, gemm.space(tn).from_json(kWgmma));
  EXPECT_EQ(plain.launches, 1);
  EXPECT_EQ(staged.launches, 3);
  ASSERT_EQ(plain.warp_work.size(), staged.warp_work.size());
  for (size_t i = 0; i < plain.warp_work.size(); ++i) EXPECT_GT(staged.warp_work[i], plain.warp_work[i]);
}

// A data-parallel configuration of the m16n8k8 kernel in 3 stages.
nlohmann::json k8_config(const char* mma, int64_t bm, int64_t bn, int64_t bk, int64_t tm, int64_t tn) {
  return {{"mma", mma}, {"decomposition", "data_parallel"}, {"bm", bm}, {"bn", bn}, {"bk", bk}, {"tm", tm}, {"tn", tn},
          {"stages", 3}, {"split", 1}, {"sk_grid", kGemmSms}, {"raster", 1}, {"loader", "cp_async"}, {"cluster", 1}};
}

TEST(GemmSpace, DmmaIsAnF64InstructionOnWarpTilesOfSixteenByEightBlocks) {
  const GemmFamily gemm;
  const Problem f64 = make_problem(gemm, {{"m", 256}, {"n", 256}, {"k", 256}}, Precision::uniform(Dtype::F64));
  const Problem f32 = make_problem(gemm, {{"m", 256}, {"n", 256}, {"k", 256}}, Precision::uniform(Dtype::F32));
  nlohmann::json dmma = k8_config("dmma", 64, 64, 16, 32, 32);
  const ParameterSpace s = gemm.space(f64);
  ASSERT_EQ(refusal(s, dmma), "");
  EXPECT_EQ(GemmConfig::from(s.from_json(dmma), f64.precision).kernel, GemmKernel::Dmma);
  EXPECT_NE(refusal(gemm.space(f32), dmma), "");  // f32 has FMA only
  dmma["tm"] = 8;  // half a 16 x 8 block
  dmma["bm"] = 16;
  dmma["tn"] = 16;
  EXPECT_NE(refusal(s, dmma).find("warp tiles of 16 x 8 blocks"), std::string::npos) << refusal(s, dmma);
}

// tf32 runs the m16n8k8 kernel on f32 inputs, with warp tiles up to 64 x 64 (f64's stop at 32
// rows), its k-major rows padded by 4 floats and its m- or n-major rows by 8 (32 bytes, as f64's 4).
TEST(GemmSpace, Tf32IsTheM16n8k8KernelOnFloatsWithWiderWarpTiles) {
  const GemmFamily gemm;
  const Problem tf32 = make_problem(gemm, {{"m", 512}, {"n", 512}, {"k", 512}}, precision_from_string("tf32"));
  const Problem f64 = make_problem(gemm, {{"m", 512}, {"n", 512}, {"k", 512}}, Precision::uniform(Dtype::F64));
  nlohmann::json c = k8_config("tf32", 128, 128, 32, 64, 64);
  const ParameterSpace s = gemm.space(tf32);
  ASSERT_EQ(refusal(s, c), "");
  const GemmConfig g = GemmConfig::from(s.from_json(c), tf32.precision);
  EXPECT_EQ(g.kernel, GemmKernel::Dmma);
  // nn: A k-major (128 rows of 32 + 4), B n-major (32 rows of 128 + 8), three stages of floats.
  EXPECT_EQ(g.shared_bytes(GemmShape::of(tf32), tf32.precision), 3 * (128 * 36 + 32 * 136) * 4);
  // One register a float: 128 accumulators and two steps of 16 + 16 fragments.
  EXPECT_EQ(g.data_registers(tf32.precision), 128 + 2 * 32);
  c["mma"] = "dmma";
  EXPECT_NE(refusal(gemm.space(f64), c), "");  // a 64-row warp tile of doubles
  c["tm"] = 32, c["tn"] = 32, c["bm"] = 64, c["bn"] = 64;
  EXPECT_EQ(refusal(gemm.space(f64), c), "");
  EXPECT_NE(refusal(s, c), "");  // tf32's list names no "dmma"
  // wgmma reads tf32 in 32-deep slices of 16-byte aligned k-major rows: in layout nt as stored
  // where k is a multiple of 4, copied first otherwise.
  nlohmann::json w = kWgmma;
  w["bk"] = 32;
  EXPECT_EQ(refusal(s, w), "");
  const GemmConfig wg = GemmConfig::from(s.from_json(w), tf32.precision);
  EXPECT_EQ(wg.kernel, GemmKernel::Wgmma);
  w["bk"] = 64;
  EXPECT_NE(refusal(s, w), "");
  auto staged = [&](const char* layout, int64_t k) {
    const Problem q = make_problem(gemm, {{"m", 64}, {"n", 64}, {"k", k}, {"layout", layout}}, tf32.precision);
    const GemmStaging g = GemmStaging::of(GemmShape::of(q), wg, q.precision);
    return std::to_string(g.a) + std::to_string(g.b) + " k=" + std::to_string(g.run.k);
  };
  EXPECT_EQ(staged("nt", 2500), "00 k=2500");  // 16-byte rows of f32: read as stored (bf16 needs k % 8)
  EXPECT_EQ(staged("nt", 2502), "11 k=2504");
  EXPECT_EQ(staged("nn", 512), "01 k=512");
  EXPECT_EQ(staged("tt", 512), "10 k=512");
}

}  // namespace
}  // namespace ktune
