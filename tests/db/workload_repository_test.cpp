#include "db/workload_repository.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "db_test_support.h"

namespace ktune {
namespace {

using WorkloadRepositoryTest = dbtest::DbTest;

WorkloadRecord sample(const std::string& signature) {
  WorkloadRecord w;
  w.signature = signature;
  w.kind = "sparse_matrix";
  w.rows = 3000000000LL;  // beyond 32 bits: columns must hold 64-bit counts
  w.cols = 7;
  w.nnz = 123456789012LL;
  w.features = {{"row_cv", 0.25}, {"histogram", {1, 2, 3}}, {"name", "é ünïcode"}};
  w.vector = {0.1, -2.5, 1e-300, 12345.678901234567};
  w.description = "matrix one";
  return w;
}

void expect_same_content(const WorkloadRecord& got, const WorkloadRecord& want) {
  EXPECT_EQ(got.signature, want.signature);
  EXPECT_EQ(got.kind, want.kind);
  EXPECT_EQ(got.rows, want.rows);
  EXPECT_EQ(got.cols, want.cols);
  EXPECT_EQ(got.nnz, want.nnz);
  EXPECT_EQ(got.features, want.features);
  EXPECT_EQ(got.vector, want.vector);  // exact: JSON keeps doubles round-trip exact
  EXPECT_EQ(got.description, want.description);
}

TEST_F(WorkloadRepositoryTest, RoundTripByIdAndBySignature) {
  open();
  WorkloadRepository workloads(*db_);
  const WorkloadRecord w = sample("sig-1");
  const int64_t id = workloads.upsert(w);
  const auto by_id = workloads.get(id);
  ASSERT_TRUE(by_id.has_value());
  EXPECT_EQ(by_id->id, id);
  expect_same_content(*by_id, w);
  EXPECT_FALSE(by_id->created_at.empty());
  const auto by_signature = workloads.get_by_signature("sig-1");
  ASSERT_TRUE(by_signature.has_value());
  EXPECT_EQ(by_signature->id, id);
  EXPECT_FALSE(workloads.get(id + 1).has_value());
  EXPECT_FALSE(workloads.get_by_signature("missing").has_value());
}

TEST_F(WorkloadRepositoryTest, SecondUpsertUpdatesTheSameRow) {
  open();
  WorkloadRepository workloads(*db_);
  const int64_t id = workloads.upsert(sample("sig-1"));
  WorkloadRecord changed = sample("sig-1");
  changed.features = {{"row_cv", 0.5}};
  changed.vector = {9.0};
  changed.description = "renamed";
  EXPECT_EQ(workloads.upsert(changed), id);
  expect_same_content(*workloads.get(id), changed);
  SQLite::Database raw(path_);
  EXPECT_EQ(raw.execAndGet("SELECT count(*) FROM workloads").getInt64(), 1);
}

TEST_F(WorkloadRepositoryTest, EmptyDescriptionKeepsTheStoredOne) {
  open();
  WorkloadRepository workloads(*db_);
  const int64_t id = workloads.upsert(sample("sig-1"));
  WorkloadRecord unnamed = sample("sig-1");
  unnamed.description.clear();
  workloads.upsert(unnamed);
  EXPECT_EQ(workloads.get(id)->description, "matrix one");
}

TEST_F(WorkloadRepositoryTest, ListVectorsReturnsOnlyTheKindAsked) {
  open();
  WorkloadRepository workloads(*db_);
  WorkloadRecord a = sample("a"), b = sample("b"), g = sample("g");
  b.vector = {4.0, 5.0};
  g.kind = "graph";
  const int64_t id_a = workloads.upsert(a);
  const int64_t id_b = workloads.upsert(b);
  workloads.upsert(g);
  const auto vectors = workloads.list_vectors("sparse_matrix");
  ASSERT_EQ(vectors.size(), 2u);
  EXPECT_EQ(vectors[0].id, id_a);
  EXPECT_EQ(vectors[0].signature, "a");
  EXPECT_EQ(vectors[0].vector, a.vector);
  EXPECT_EQ(vectors[1].id, id_b);
  EXPECT_EQ(vectors[1].vector, b.vector);
  EXPECT_EQ(workloads.list_vectors("graph").size(), 1u);
  EXPECT_TRUE(workloads.list_vectors("gemm").empty());
}

TEST_F(WorkloadRepositoryTest, NonFiniteVectorIsRefusedBeforeStoring) {
  open();
  WorkloadRepository workloads(*db_);
  WorkloadRecord w = sample("nan");
  w.vector[2] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(workloads.upsert(w), std::invalid_argument);
  w.vector[2] = std::numeric_limits<double>::infinity();
  EXPECT_THROW(workloads.upsert(w), std::invalid_argument);
  EXPECT_FALSE(workloads.get_by_signature("nan").has_value());
}

}  // namespace
}  // namespace ktune
