#pragma once
// The graph as the traversal kernels read it: its out-edges, with a row pointer over every
// vertex (n + 1 entries even when the CSR has fewer rows: vertices past its last row have no
// out-edges), and, for a pull, its in-edges. Each is built once per workload (Workload::derived)
// and its bytes shared by every plan of a tune, however many run at once.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernels/launch_plan.h"
#include "workload/workload.h"

namespace ktune {

struct GraphEdges {
  HostBytes row_ptr;  // int32, vertex_count + 1 entries
  HostBytes col_idx;  // int32, at least one entry, so that no buffer is empty
  // Building them: a plan that reads them reports this as its preprocessing, whether it built
  // them or found them built.
  double build_seconds = 0;

  // The two arrays as device inputs under the names a family's kernels give them.
  std::vector<DeviceBuffer> buffers(const std::string& row_ptr_name, const std::string& col_idx_name) const;
};

// Other device inputs a family derives from a graph (an undirected form, each edge's head), with
// what building them took: `build` runs once per workload under `key` (Workload::derived).
struct DerivedInputs {
  std::vector<DeviceBuffer> buffers;
  double build_seconds = 0;
};
std::shared_ptr<const DerivedInputs> derived_inputs(const Workload& w, const std::string& key,
                                                    const std::function<std::vector<DeviceBuffer>()>& build);

std::shared_ptr<const GraphEdges> graph_out_edges(const Workload& w);
// The transpose (kernels/graph/graph_transpose.h), or, for a graph that is its own transpose
// (undirected), the out-edges' own bytes: no second copy.
std::shared_ptr<const GraphEdges> graph_in_edges(const Workload& w);

}  // namespace ktune
