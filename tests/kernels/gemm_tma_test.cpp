// GEMM's TMA loader without a GPU: where the space admits it and clusters of 2, the tile grid a
// cluster pads to pairs, and the plan's tensor maps, cluster dims and producer warp.
#include <gtest/gtest.h>

#include <algorithm>

#include "kernels/gemm/gemm_config.h"
#include "kernels/gemm/gemm_estimate.h"
#include "kernels/gemm/gemm_family.h"
#include "kernels/gemm/gemm_schedule.h"
#include "tests/kernels/gemm_tma_keys.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

const GemmFamily family;
const Precision kBf16{Dtype::BF16, Dtype::F32, Dtype::F32};

Problem nt(int64_t m, int64_t n, int64_t k, int64_t batch = 1) {
  return make_problem(family, {{"m", m}, {"n", n}, {"k", k}, {"batch", batch}, {"layout", "nt"}}, kBf16);
}

// wgmma's 128 x 256 tile of two warpgroups, fed by TMA in clusters of `cluster`.
nlohmann::json tma(int64_t cluster, int64_t raster = 1, const char* decomposition = "data_parallel") {
  return {{"mma", "wgmma"}, {"decomposition", decomposition}, {"bm", 128}, {"bn", 256}, {"bk", 64},
          {"tm", 64},       {"tn", 256},                      {"stages", 4}, {"split", 1}, {"sk_grid", kGemmSms},
          {"raster", raster}, {"loader", "tma"},              {"cluster", cluster}};
}

std::string refusal(const Problem& p, const nlohmann::json& parameters) {
  try {
    family.space(p).from_json(parameters);
    return "";
  } catch (const InputError& e) {
    return e.what();
  }
}

TEST(GemmTmaSpace, TmaFeedsWgmmaOnlyAndClustersOfTwoOnlyWholeTileGrids) {
  const Problem p = nt(4096, 4096, 4096);
  EXPECT_EQ(refusal(p, tma(1)), "");
  EXPECT_EQ(refusal(p, tma(2)), "");
  EXPECT_EQ(refusal(p, tma(2, 4)), "");
  EXPECT_EQ(refusal(p, tma(1, 1, "persistent")), "");
  EXPECT_EQ(refusal(p, tma(2, 8, "persistent")), "");
  // A persistent grid needs the producer warp that runs ahead into the next tile.
  nlohmann::json persistent_cp_async = tma(1, 1, "persistent");
  persistent_cp_async["loader"] = "cp_async";
  EXPECT_NE(refusal(p, persistent_cp_async).find("persistent needs tma"), std::string::npos);
  for (const char* d : {"stream_k", "hybrid"}) {
    EXPECT_EQ(refusal(p, tma(1, 1, d)), "") << d;
    EXPECT_NE(refusal(p, tma(2, 1, d)).find("cluster"), std::string::npos) << d;
  }
  nlohmann::json cp_async = tma(2);
  cp_async["loader"] = "cp_async";
  EXPECT_NE(refusal(p, cp_async).find("cluster"), std::string::npos);
  nlohmann::json sync = tma(1);
  sync["mma"] = "sync";
  sync["bk"] = 32;
  sync["tn"] = 64;
  EXPECT_NE(refusal(p, sync).find("tma loads wgmma's ring only"), std::string::npos);
  // f32 has neither: its space has one loader and clusters of one.
  const ParameterSpace f32 = family.space(make_problem(family, {{"m", 64}, {"n", 64}, {"k", 64}}, Precision::uniform(Dtype::F32)));
  EXPECT_EQ(f32.first_valid().at("cluster"), 1);
  EXPECT_EQ(f32.first_valid().at("loader"), 0);
}

// wgmma's ring may hold up to 7 slices where shared memory has room: 6 stages of a 64 x 128
// tile ran 768^3 and 1000^3 about 7% faster than 4 (H200, bundle 5717105 with the range widened);
// 7 stages of 128 x 128 with two warpgroups' boxes of C (7 x 32 + 16 KiB) do not fit.
TEST(GemmTmaSpace, RingsOfUpToSevenStagesWhereSharedMemoryHoldsThem) {
  const Problem p = nt(768, 768, 768);
  nlohmann::json small = tma(1, 2, "persistent");
  small["bm"] = 64, small["bn"] = 128, small["tm"] = 64, small["tn"] = 64;
  for (int64_t stages : {6, 7}) {
    small["stages"] = stages;
    EXPECT_EQ(refusal(p, small), "") << stages;
  }
  nlohmann::json square = tma(1, 2, "persistent");
  square["bn"] = 128, square["tn"] = 128, square["stages"] = 6;
  EXPECT_EQ(refusal(p, square), "");
  square["stages"] = 7;
  EXPECT_NE(refusal(p, square).find("shared memory"), std::string::npos);
  square["stages"] = 8;
  EXPECT_NE(refusal(p, square), "");
}

TEST(GemmTmaSchedule, AClusterOfTwoPadsTheTileGridToPairsSharingAnOperand) {
  GemmShape s;
  s.m = 300;   // 3 tile-rows of 128
  s.n = 520;   // 3 tile-columns of 256
  s.k = 1000;
  s.batch = 3;
  GemmConfig c = GemmConfig::from(family.space(nt(300, 520, 1000, 3)).from_json(tma(1)), kBf16);
  const GemmSchedule one = GemmSchedule::of(s, c);
  EXPECT_EQ(one.tiles_m, 3);
  EXPECT_EQ(one.tiles_n, 3);
  c.cluster = 2;  // row-major tiles: pairs in one tile-row share A; tile-columns pad to 4
  EXPECT_EQ(c.shared_operand(), 1);
  const GemmSchedule rows = GemmSchedule::of(s, c);
  EXPECT_EQ(rows.tiles_n, 4);
  EXPECT_EQ(rows.tiles_m, 3);
  EXPECT_EQ(rows.grid % 2, 0);
  c.raster = 2;  // grouped tiles: pairs in one tile-column share B; tile-rows pad to 4
  EXPECT_EQ(c.shared_operand(), 2);
  const GemmSchedule cols = GemmSchedule::of(s, c);
  EXPECT_EQ(cols.tiles_m, 4);
  EXPECT_EQ(cols.tiles_n, 3);
  EXPECT_EQ(cols.grid, 4 * 3 * 3);
}

TEST(GemmTmaPlan, CarriesTensorMapsOverAAndBClusterDimsAndTheProducerWarp) {
  const Workload dense{WorkloadKind::Dense, {}};
  const Problem p = nt(300, 520, 1000, 3);
  const ParameterSpace space = family.space(p);
  for (int64_t raster : {1, 2}) {
    const Config config = space.from_json(tma(2, raster));
    const LaunchPlan plan = family.prepare(dense, p, config);
    EXPECT_NO_THROW(check_plan(plan));
    ASSERT_EQ(plan.steps.size(), 1u);
    const LaunchStep& s = plan.steps[0];
    EXPECT_EQ(s.entry, "gemm_wgmma_tma");
    EXPECT_EQ(s.block.x, 2u * 128 + 32);  // two consumer warpgroups and the producer warp
    EXPECT_EQ(s.cluster.x, 2u);
    EXPECT_EQ(s.grid.x % 2, 0u);
    EXPECT_TRUE(s.clustered());
    // The schedule's 14 scalars, A's, B's and C's maps, then C, the workspace and the counters.
    ASSERT_EQ(s.args.size(), 20u);
    ASSERT_TRUE(s.args[14].tensor_map);
    ASSERT_TRUE(s.args[15].tensor_map);
    const TensorMapArg& a = *s.args[14].tensor_map;
    const TensorMapArg& b = *s.args[15].tensor_map;
    EXPECT_EQ(a.buffer, "a");
    EXPECT_EQ(b.buffer, "b");
    EXPECT_EQ(a.dtype, Dtype::BF16);
    EXPECT_EQ(a.dims, (std::vector<uint64_t>{1000, 900}));  // k, then every batch's rows stacked
    EXPECT_EQ(b.dims, (std::vector<uint64_t>{1000, 1560}));
    EXPECT_EQ(a.strides, (std::vector<uint64_t>{2000}));
    EXPECT_EQ(a.swizzle_bytes, 128u);
    EXPECT_EQ(b.swizzle_bytes, 128u);
    // Each CTA of the pair loads half of the shared operand's slice.
    EXPECT_EQ(a.box, (std::vector<uint32_t>{64, raster == 1 ? 64u : 128u}));
    EXPECT_EQ(b.box, (std::vector<uint32_t>{64, raster == 1 ? 256u : 128u}));
    // C stored by TMA: n x m x batch (a ragged tile's rows clipped at its batch's end), a warp's
    // 16 x 16 boxes of f32 in 64-byte swizzle.
    ASSERT_TRUE(s.args[16].tensor_map);
    const TensorMapArg& c = *s.args[16].tensor_map;
    EXPECT_EQ(c.buffer, "c");
    EXPECT_EQ(c.dtype, Dtype::F32);
    EXPECT_EQ(c.dims, (std::vector<uint64_t>{520, 300, 3}));
    EXPECT_EQ(c.strides, (std::vector<uint64_t>{2080, 2080 * 300}));
    EXPECT_EQ(c.box, (std::vector<uint32_t>{16, 16, 1}));
    EXPECT_EQ(c.swizzle_bytes, 64u);
    EXPECT_EQ(s.args[17].buffer, "c");
    // The 1024-aligned ring, each of the 8 consumer warps' two 1 KiB boxes of C, two mbarriers a
    // stage and the fix-up's two ints; no room to align (no static shared memory).
    EXPECT_EQ(s.shared_bytes, 4u * (128 + 256) * 128 + 8 * 2048 + 16 * 4 + 8);
    const KernelSource src = family.source(p, config);
    EXPECT_EQ(src.entries, std::vector<std::string>{"gemm_wgmma_tma"});
    EXPECT_TRUE(src.arch_specific);
    EXPECT_NE(src.code.find("cp.async.bulk.tensor"), std::string::npos);
    EXPECT_NE(std::find(src.options.begin(), src.options.end(), "-DKT_TMA_STORE=1"), src.options.end());
  }
  // Rows of C not 16-byte aligned (n = 518), and split-K's copies of C (summed by a launch of
  // their own), are stored directly: no map over C, and room to align the ring.
  const Problem odd = nt(300, 518, 1000, 3);
  nlohmann::json split = tma(1, 1, "split_k");
  split["split"] = 2;
  for (const auto& [problem, parameters] : {std::pair{odd, tma(1)}, std::pair{p, split}}) {
    const Config config = family.space(problem).from_json(parameters);
    const LaunchStep s = family.launches(dense, problem, config).at(0);
    EXPECT_EQ(s.args.size(), 19u);
    EXPECT_EQ(s.args[16].buffer, "c");
    EXPECT_EQ(s.shared_bytes, 4u * (128 + 256) * 128 + 1024 + 16 * 4);
    const KernelSource src = family.source(problem, config);
    EXPECT_NE(std::find(src.options.begin(), src.options.end(), "-DKT_TMA_STORE=0"), src.options.end());
  }
  // cp.async keeps plain addresses, no clusters, and its block of consumers alone.
  nlohmann::json cp = tma(1);
  cp["loader"] = "cp_async";
  const LaunchStep s = family.launches(dense, p, space.from_json(cp)).at(0);
  EXPECT_EQ(s.entry, "gemm_wgmma");
  EXPECT_EQ(s.block.x, 256u);
  EXPECT_FALSE(s.clustered());
  EXPECT_FALSE(s.has_tensor_maps());
  EXPECT_EQ(s.args[14].buffer, "a");
  // Neither runs on the interpreter.
  EXPECT_FALSE(family.emulable(p, space.from_json(tma(2))));
}

// TMA ranks above cp.async; a cluster of 2 is priced as CTAs of one (the H200's searches measure
// them within about 3%: gemm_estimate.cpp says why multicast earns no credit).
TEST(GemmTmaEstimate, TmaRanksAboveCpAsyncOnALargeSquareAndAClusterAsCtasOfOne) {
  const Workload dense{WorkloadKind::Dense, {}};
  const Problem p = nt(4096, 4096, 4096);
  const ParameterSpace space = family.space(p);
  nlohmann::json cp = tma(1);
  cp["loader"] = "cp_async";
  auto slowest = [&](const nlohmann::json& j) {
    const WorkEstimate e = family.estimate(dense, p, space.from_json(j));
    double t = 0;
    for (double w : e.warp_work) t = std::max(t, w);
    return t;
  };
  EXPECT_LT(slowest(tma(1)), slowest(cp));
  EXPECT_DOUBLE_EQ(slowest(tma(2)), slowest(tma(1)));
}

// Pure Stream-K over many tiles a CTA reads every slice from DRAM once A and B outgrow L2 (at
// 8192^3 on an H100 it ran 1.2x (cp.async) and 1.8x (TMA) slower than data-parallel); where they fit (384 x 384
// x 16384) or the hybrid's CTAs take under two tiles, it costs about what data-parallel does.
TEST(GemmTmaEstimate, StreamKOverManyTilesACtaPaysDramWhereTheOperandsOutgrowL2) {
  const Workload dense{WorkloadKind::Dense, {}};
  auto dram = [&](const Problem& p, const char* decomposition, int64_t bm, int64_t bn, int64_t tn) {
    nlohmann::json j = tma(1, 1, decomposition);
    j["bm"] = bm, j["bn"] = bn, j["tn"] = tn;
    return family.estimate(dense, p, family.space(p).from_json(j)).dram_bytes;
  };
  const Problem big = nt(8192, 8192, 8192);
  // Data-parallel's waves re-read the operands (about 2.3 GB); Stream-K's slices about 10 GB.
  EXPECT_GT(dram(big, "stream_k", 128, 256, 256), 4 * dram(big, "data_parallel", 128, 256, 256));
  EXPECT_LT(dram(big, "hybrid", 128, 256, 256), 2 * dram(big, "data_parallel", 128, 256, 256));
  const Problem skinny = nt(384, 384, 16384);
  EXPECT_LT(dram(skinny, "stream_k", 64, 64, 64), 2 * dram(skinny, "data_parallel", 64, 64, 64));  // partials only
}

// The configurations handed to the GPU engineer for family_bench --config (gemm_tma_keys.h):
// each must stay a valid key of its shape's space.
TEST(GemmTmaSpace, TheBenchmarkKeysAreValidForTheirShapes) {
  for (int64_t e : {4096, 8192}) {
    const ParameterSpace space = family.space(nt(e, e, e));
    for (const std::string& key : kGemmTmaSquareKeys) EXPECT_EQ(space.canonical(space.from_canonical(key)), key) << e;
  }
  const ParameterSpace space = family.space(nt(384, 384, 16384));
  for (const std::string& key : kGemmTmaSkinnyKeys) EXPECT_EQ(space.canonical(space.from_canonical(key)), key);
}

// GemmOnDevice.TmaConfigurations* builds these on its shapes in bf16 and f16, and
// ListedTilesAgainstCublasOn4096Cubed on 4096^3: each must be a valid configuration there (a
// choice's index given as a value, loader=2, once reached the GPU), and feed wgmma by TMA in the
// clusters it names.
TEST(GemmTmaSpace, TheDeviceTestsConfigurationsAreValidOnEveryShapeTheyRunOn) {
  std::vector<std::array<int64_t, 4>> shapes = kGemmTmaVerifyShapes;
  shapes.push_back({4096, 4096, 4096, 1});
  for (Dtype input : {Dtype::BF16, Dtype::F16}) {
    const Precision precision{input, Dtype::F32, Dtype::F32};
    for (const auto& [m, n, k, batch] : shapes) {
      const Problem problem =
          make_problem(family, {{"m", m}, {"n", n}, {"k", k}, {"batch", batch}, {"layout", "nt"}}, precision);
      const ParameterSpace space = family.space(problem);
      int clusters = 0;
      for (const nlohmann::json& j : gemm_tma_verify_parameters()) {
        const std::string what = j.dump() + " on " + std::to_string(m) + "x" + std::to_string(n) + "x" +
                                 std::to_string(k) + " batch " + std::to_string(batch) + " " + to_string(precision);
        Config c;
        ASSERT_NO_THROW(c = space.from_json(j)) << what;
        ASSERT_TRUE(space.valid(c)) << what << ": " << space.violation(c);
        EXPECT_EQ(space.from_canonical(space.canonical(c)), c) << what;
        const GemmConfig g = GemmConfig::from(c, precision);
        EXPECT_EQ(g.kernel, GemmKernel::Wgmma) << what;
        EXPECT_EQ(g.loader, GemmLoader::Tma) << what;
        EXPECT_EQ(g.cluster, j.at("cluster").get<int64_t>()) << what;
        clusters += g.cluster == 2;
        EXPECT_EQ(family.prepare(Workload{WorkloadKind::Dense, {}}, problem, c).steps.at(0).cluster.x,
                  static_cast<unsigned>(g.cluster))
            << what;
      }
      EXPECT_EQ(clusters, 6);  // four data-parallel, two persistent
    }
  }
}

TEST(GemmTmaHash, TheFamilysTemplatesIncludeTheTmaKernel) {
  bool kernel = false, ops = false;
  for (std::string_view t : family.templates()) {
    kernel = kernel || t.find("gemm_wgmma_tma(") != std::string_view::npos;
    ops = ops || t.find("KtTensorMap") != std::string_view::npos;
  }
  EXPECT_TRUE(kernel);
  EXPECT_TRUE(ops);
}

}  // namespace
}  // namespace ktune
