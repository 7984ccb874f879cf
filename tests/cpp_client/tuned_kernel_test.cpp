// TunedKernel against a real ktuned (model-only, started here): the signature it computes is
// the daemon's, a lookup finds the exact answer after a tune, the nearest for a perturbed
// matrix, and submits a tune when nothing is stored; with the daemon down it runs the vendor
// library and says so once; without a GPU, launch() throws a LaunchError that says why.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <chrono>
#include <thread>

#include "clients/ktune_client.h"
#include "gpu/device_info.h"
#include "kernels/kernel_family.h"
#include "ktune/tuned_kernel.h"
#include "tests/server/ktuned_process.h"
#include "workload/generators.h"
#include "workload/gzip.h"
#include "workload/input_error.h"
#include "workload/matrix_market.h"
#include "workload/signature.h"

namespace ktune {
namespace {

using testing::KtunedProcess;

CsrF64 project_csr(const std::string& name) {
  return parse_matrix_market(gunzip_if_compressed(testing::project_matrix(name), size_t{1} << 30), ReadLimits{});
}

// Drops the last entry of a few rows: the same kind of matrix under another exact signature.
CsrF64 perturbed(const CsrF64& m) {
  CsrF64 p = m;
  p.col_idx.clear();
  p.values.clear();
  for (int32_t r = 0; r < m.rows; ++r) {
    int32_t end = m.row_ptr[r + 1];
    if (r % 500 == 7 && m.row_length(r) > 1) --end;
    for (int32_t k = m.row_ptr[r]; k < end; ++k) {
      p.col_idx.push_back(m.col_idx[k]);
      p.values.push_back(m.values[k]);
    }
    p.row_ptr[r + 1] = static_cast<int32_t>(p.col_idx.size());
  }
  return p;
}

// A loopback port nobody listens on.
int closed_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), length);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

class TunedKernelTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { daemon_ = new KtunedProcess(testing::fresh_dir("cpp-client")); }
  static void TearDownTestSuite() {
    delete daemon_;
    daemon_ = nullptr;
  }

  ClientOptions options(const std::string& server) {
    ClientOptions o;
    o.server = server;
    o.cache_dir = testing::fresh_dir("cpp-client-cache").string();
    o.tune_budget = {{"compiles", 2}};
    o.notice = [this](const std::string& message) { notices_.push_back(message); };
    return o;
  }
  KtuneClient http() const { return KtuneClient("127.0.0.1", daemon_->port(), ""); }

  // Follows the newest job to its end.
  nlohmann::json finished_job() {
    const std::string id = json_get("/v1/jobs")["jobs"].at(0)["id"];
    KtuneClient client = http();
    for (int i = 0; i < 1200; ++i) {
      nlohmann::json job = client.job(id);
      if (job["state"] != "queued" && job["state"] != "running") return job;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    throw std::runtime_error("job " + id + " did not finish in two minutes");
  }
  nlohmann::json json_get(const std::string& path) { return nlohmann::json::parse(daemon_->client().Get(path)->body); }

  static KtunedProcess* daemon_;
  std::vector<std::string> notices_;
};
KtunedProcess* TunedKernelTest::daemon_ = nullptr;

TEST_F(TunedKernelTest, SignatureAndFeaturesAreTheDaemons) {
  const CsrF64 m = project_csr("gemat12.mtx.gz");
  KtuneClient client = http();
  const nlohmann::json uploaded = client.upload_matrix_bytes(testing::project_matrix("gemat12.mtx.gz"), "gemat12.mtx.gz");
  const TunedKernel k = TunedKernel::with_answer({"spmv", "f32", {}}, m, nullptr, options(daemon_->address()));
  EXPECT_EQ(k.signature(), uploaded["signature"]);
  // What the client sends for a nearest-neighbour lookup.
  EXPECT_EQ(nlohmann::json(compute_signature(m, WorkloadKind::SparseMatrix).vector), uploaded["features"]["vector"]);
}

TEST_F(TunedKernelTest, TunesWhatIsMissingThenFindsItExactAndItsNeighbourNearest) {
  const CsrF64 m = project_csr("hammond.mtx.gz");
  const TunedKernel untuned = TunedKernel::open({"spmv", "f32", {}}, m, options(daemon_->address()));
  EXPECT_EQ(untuned.match(), "default");
  EXPECT_EQ(untuned.runs(), "ktune");
  ASSERT_EQ(notices_.size(), 1u);
  EXPECT_NE(notices_[0].find("tuning it (job"), std::string::npos) << notices_[0];
  const nlohmann::json job = finished_job();
  ASSERT_EQ(job["state"], "done") << job.dump();

  const TunedKernel tuned = TunedKernel::open({"spmv", "f32", {}}, m, options(daemon_->address()));
  EXPECT_EQ(tuned.match(), "exact");
  EXPECT_EQ(tuned.answer()["signature"], tuned.signature());
  EXPECT_EQ(tuned.answer()["parameters"], job["best"]["parameters"]);

  const TunedKernel neighbour = TunedKernel::open({"spmv", "f32", {}}, perturbed(m), options(daemon_->address()));
  EXPECT_EQ(neighbour.match(), "nearest");
  EXPECT_EQ(neighbour.answer()["neighbour"], tuned.signature());
  EXPECT_EQ(neighbour.answer()["parameters"], job["best"]["parameters"]);
  EXPECT_EQ(json_get("/v1/jobs")["jobs"].size(), 1u) << "a nearest answer submits no tune";
  EXPECT_EQ(notices_.size(), 1u);
}

TEST_F(TunedKernelTest, AnUnreachableDaemonMeansTheVendorLibraryToldOnce) {
  const std::string nobody = "127.0.0.1:" + std::to_string(closed_port());
  const CsrF64 m = generate_banded(1000, 3, 1);
  for (int i = 0; i < 3; ++i) {
    const TunedKernel k = TunedKernel::open({"spmv", "f32", {}}, m, options(nobody));
    EXPECT_EQ(k.match(), "none");
    EXPECT_EQ(k.runs(), "cusparse-csr_alg1");
    EXPECT_TRUE(k.answer().is_null());
  }
  ASSERT_EQ(notices_.size(), 1u);
  EXPECT_NE(notices_[0].find("cannot reach ktuned at " + nobody), std::string::npos) << notices_[0];
  EXPECT_NE(notices_[0].find("running cusparse-csr_alg1 instead"), std::string::npos) << notices_[0];
}

TEST_F(TunedKernelTest, ARefusedRequestIsTheCallersError) {
  const CsrF64 m = generate_banded(100, 2, 1);
  EXPECT_THROW(TunedKernel::open({"spmv", "f16", {}}, m, options(daemon_->address())), InputError);
  EXPECT_THROW(TunedKernel::open({"no_such_kernel", "f32", {}}, m, options(daemon_->address())), std::invalid_argument);
}

// A dense family's problem is its shape: the tune names no workload, the signature is the
// problem's, and a nearby shape finds the tuned one.
TEST_F(TunedKernelTest, AShapeIsTunedWithNothingUploadedThenFoundExactAndItsNeighbourNearest) {
  const nlohmann::json shape = {{"m", 96}, {"n", 80}, {"k", 64}};
  const TunedKernel untuned = TunedKernel::open({"gemm", "f32", shape}, options(daemon_->address()));
  EXPECT_EQ(untuned.match(), "default");
  const Problem problem = make_problem(*find_family("gemm"), shape, Precision::uniform(Dtype::F32));
  EXPECT_EQ(untuned.signature(), dense_signature(problem.key()).exact);
  EXPECT_EQ(untuned.operands(), (std::vector<std::string>{"a", "b", "c"}));
  ASSERT_EQ(notices_.size(), 1u);
  EXPECT_NE(notices_[0].find("tuning it (job"), std::string::npos) << notices_[0];
  const nlohmann::json job = finished_job();
  ASSERT_EQ(job["state"], "done") << job.dump();

  const TunedKernel tuned = TunedKernel::open({"gemm", "f32", shape}, options(daemon_->address()));
  EXPECT_EQ(tuned.match(), "exact");
  EXPECT_EQ(tuned.answer()["signature"], tuned.signature());
  EXPECT_EQ(tuned.answer()["parameters"], job["best"]["parameters"]);
  const TunedKernel neighbour =
      TunedKernel::open({"gemm", "f32", {{"m", 100}, {"n", 80}, {"k", 64}}}, options(daemon_->address()));
  EXPECT_EQ(neighbour.match(), "nearest");
  EXPECT_EQ(neighbour.answer()["parameters"], job["best"]["parameters"]);

  EXPECT_THROW(TunedKernel::open({"gemm", "f32", shape}, generate_banded(10, 1, 1), options(daemon_->address())),
               std::invalid_argument);
  EXPECT_THROW(TunedKernel::open({"spmv", "f32", {}}, options(daemon_->address())), std::invalid_argument);
}

class WithoutGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (probe_device(0).present) GTEST_SKIP() << "this machine has a GPU";
  }
};

TEST_F(WithoutGpu, LaunchThrowsALaunchErrorSayingWhy) {
  ClientOptions offline;
  offline.server = "127.0.0.1:" + std::to_string(closed_port());
  offline.notice = [](const std::string&) {};
  const CsrF64 m = generate_banded(1000, 3, 1);
  for (nlohmann::json answer : {nlohmann::json(), nlohmann::json{{"parameters", {{"schedule", "row"}}}, {"match", "exact"}}}) {
    TunedKernel k = TunedKernel::with_answer({"spmv", "f32", {}}, m, answer, offline);
    EXPECT_EQ(k.operands(), (std::vector<std::string>{"x", "y"}));
    try {
      k.launch({{"x", 0x1000}, {"y", 0x2000}});
      ADD_FAILURE() << "launched without a GPU";
    } catch (const LaunchError& e) {
      EXPECT_NE(std::string(e.what()).find("cannot launch: no GPU"), std::string::npos) << e.what();
    }
  }
  // A matrix on the device without its values on the host: they are read back at once.
  CsrF64 structure = m;
  structure.values.clear();
  EXPECT_THROW(TunedKernel::open({"spmv", "f32", {}}, structure, DeviceCsr{1, 2, 3}, offline), LaunchError);
}

}  // namespace
}  // namespace ktune
