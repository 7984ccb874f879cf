// Resolving a request's workload: the data-dir sandbox, canonical forms, and each source.
#include "server/workload_resolver.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "workload/input_error.h"

namespace ktune {
namespace {

namespace fs = std::filesystem;

class WorkloadResolverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("ktune-resolver-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "data" / "sub");
    std::ofstream(root_ / "data" / "sub" / "m.mtx") << "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 3\n";
    std::ofstream(root_ / "data" / "g.el") << "0 1\n1 2\n";
    std::ofstream(root_ / "outside.mtx") << "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1\n";
    fs::create_symlink(root_ / "outside.mtx", root_ / "data" / "link.mtx");
  }
  void TearDown() override { fs::remove_all(root_); }
  WorkloadResolver resolver() const {
    return WorkloadResolver(root_ / "data", ReadLimits{}, [](const std::string& id) -> std::string {
      if (id == "m1") return "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n2 3\n";
      throw NotFoundError("no upload " + id);
    });
  }
  fs::path root_;
};

TEST_F(WorkloadResolverTest, LoadsEachKindOfWorkload) {
  const WorkloadResolver r = resolver();
  EXPECT_EQ(r.load({{"path", "sub/m.mtx"}}, WorkloadKind::SparseMatrix).workload.matrix.nnz(), 2);
  const ResolvedWorkload graph = r.load({{"path", "g.el"}}, WorkloadKind::SparseMatrix);
  EXPECT_EQ(graph.workload.kind, WorkloadKind::Graph);
  EXPECT_EQ(graph.workload.matrix.rows, 3);
  EXPECT_EQ(r.load({{"upload", "m1"}}, WorkloadKind::SparseMatrix).workload.matrix.nnz(), 1);
  EXPECT_EQ(r.load({{"generator", "stencil2d"}, {"n", 4}}, WorkloadKind::SparseMatrix).workload.matrix.rows, 16);
  EXPECT_THROW(r.load({{"upload", "zz"}}, WorkloadKind::SparseMatrix), NotFoundError);
  EXPECT_THROW(r.load({{"path", "absent.mtx"}}, WorkloadKind::SparseMatrix), NotFoundError);
}

// A family that reads no values gets the edges alone, from every source, and the same edges.
TEST_F(WorkloadResolverTest, LoadsWithoutValuesWhenTheFamilyReadsNone) {
  const WorkloadResolver r = resolver();
  for (const nlohmann::json& spec : {nlohmann::json{{"path", "sub/m.mtx"}}, nlohmann::json{{"path", "g.el"}},
                                     nlohmann::json{{"generator", "rmat"}, {"scale", 6}, {"edge_factor", 4}, {"seed", 2}},
                                     nlohmann::json{{"generator", "uniform"}, {"rows", 30}, {"cols", 30}, {"per_row", 3}, {"seed", 1}}}) {
    const CsrF64 with = r.load(spec, WorkloadKind::Graph).workload.matrix;
    const CsrF64 without = r.load(spec, WorkloadKind::Graph, false).workload.matrix;
    EXPECT_EQ(with.values.size(), with.col_idx.size()) << spec;
    EXPECT_TRUE(without.values.empty()) << spec;
    EXPECT_EQ(without.row_ptr, with.row_ptr) << spec;
    EXPECT_EQ(without.col_idx, with.col_idx) << spec;
  }
}

TEST_F(WorkloadResolverTest, TheFamilysKindDecidesWhatAWorkloadIs) {
  const WorkloadResolver r = resolver();
  // A graph family reads a Matrix Market file as a graph; a sparse family as a matrix.
  EXPECT_EQ(r.load({{"path", "sub/m.mtx"}}, WorkloadKind::Graph).workload.kind, WorkloadKind::Graph);
  EXPECT_EQ(r.load({{"path", "sub/m.mtx"}}, WorkloadKind::SparseMatrix).workload.kind, WorkloadKind::SparseMatrix);
  // A dense family's workload is its problem's shape: no workload is named, none is loaded.
  const ResolvedWorkload dense = r.load(nullptr, WorkloadKind::Dense);
  EXPECT_EQ(dense.workload.kind, WorkloadKind::Dense);
  EXPECT_EQ(dense.workload.matrix.nnz(), 0);
  EXPECT_EQ(r.canonical(nullptr, WorkloadKind::Dense), "dense");
  EXPECT_THROW(r.validate({{"path", "sub/m.mtx"}}, WorkloadKind::Dense), InputError);
  EXPECT_THROW(r.validate(nullptr, WorkloadKind::SparseMatrix), InputError);
}

TEST_F(WorkloadResolverTest, PathsStayInsideTheDataDir) {
  const WorkloadResolver r = resolver();
  EXPECT_THROW(r.validate({{"path", "../outside.mtx"}}, WorkloadKind::SparseMatrix), ForbiddenError);
  EXPECT_THROW(r.validate({{"path", "sub/../../outside.mtx"}}, WorkloadKind::SparseMatrix), ForbiddenError);
  EXPECT_THROW(r.validate({{"path", (root_ / "outside.mtx").string()}}, WorkloadKind::SparseMatrix), ForbiddenError);
  EXPECT_THROW(r.validate({{"path", "link.mtx"}}, WorkloadKind::SparseMatrix), ForbiddenError) << "a link out of the data dir";
  EXPECT_NO_THROW(r.validate({{"path", "sub/../sub/m.mtx"}}, WorkloadKind::SparseMatrix));
}

// Found by fuzzing (fuzz/fuzz_tune_request): a path within the 4095 characters allowed was,
// joined to the data dir, too long for the system, and its filesystem_error answered 500.
TEST_F(WorkloadResolverTest, APathTooLongOnceInTheDataDirIsAnInputError) {
  const WorkloadResolver r = resolver();
  std::string path(255, 'a');
  while (path.size() + 256 <= 4095) path += "/" + std::string(255, 'a');
  fs::create_symlink("loop.mtx", root_ / "data" / "loop.mtx");
  for (const std::string& p : {path, std::string("loop.mtx")}) {
    try {
      r.validate({{"path", p}}, WorkloadKind::SparseMatrix);
      ADD_FAILURE() << p.size() << " characters accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("cannot be resolved"), std::string::npos) << e.what();
    }
  }
}

TEST_F(WorkloadResolverTest, RefusesMalformedSpecs) {
  const WorkloadResolver r = resolver();
  EXPECT_THROW(r.validate(nlohmann::json::array(), WorkloadKind::SparseMatrix), InputError);
  EXPECT_THROW(r.validate({{"path", "sub/m.mtx"}, {"upload", "m1"}}, WorkloadKind::SparseMatrix), InputError);
  EXPECT_THROW(r.validate({{"upload", 7}}, WorkloadKind::SparseMatrix), InputError);
  EXPECT_THROW(r.validate({{"generator", "stencil2d"}, {"n", 1 << 20}}, WorkloadKind::SparseMatrix), LimitError);
}

TEST_F(WorkloadResolverTest, CanonicalFormsNameTheSameWorkloadAlike) {
  const WorkloadResolver r = resolver();
  EXPECT_EQ(r.canonical({{"path", "sub/m.mtx"}}, WorkloadKind::SparseMatrix), r.canonical({{"path", "sub/../sub/m.mtx"}}, WorkloadKind::SparseMatrix));
  EXPECT_EQ(r.canonical({{"generator", "rmat"}, {"scale", 4}, {"edge_factor", 2}, {"seed", 1}}, WorkloadKind::SparseMatrix),
            r.canonical({{"seed", 1}, {"edge_factor", 2}, {"scale", 4}, {"generator", "rmat"}}, WorkloadKind::SparseMatrix));
  EXPECT_NE(r.canonical({{"upload", "m1"}}, WorkloadKind::SparseMatrix), r.canonical({{"upload", "m2"}}, WorkloadKind::SparseMatrix));
}

}  // namespace
}  // namespace ktune
