#include "workload/edge_list.h"

#include <algorithm>
#include <limits>
#include <string>

#include "workload/cancellation.h"
#include "workload/csr_builder.h"
#include "workload/line_chunks.h"
#include "workload/input_error.h"
#include "workload/text_scan.h"

namespace ktune {
namespace {

constexpr std::string_view kCommentChars = "#%";

// Parses the edge line starting at `p`; returns the start of the next line, or nullptr once
// range.failure says what is wrong.
const char* parse_edge(const char* p, const char* stop, std::string_view text, int64_t max_vertices,
                       ScannedRange& range) {
  int64_t id[2];
  const char* names[2] = {"source", "target"};
  for (int i = 0; i < 2; ++i) {
    p = skip_blanks(p, stop);
    const char* token_stop = token_end(p, stop);
    if (p == token_stop) {
      return record_failure(
          range, text, p,
          std::string("missing ") + names[i] + " vertex id (an edge is 'u v' or 'u v weight')");
    }
    if (!parse_integer(p, token_stop, id[i])) {
      return record_failure(
          range, text, p,
          std::string(names[i]) + " vertex id " + quoted(p, token_stop) + " is not an integer");
    }
    if (id[i] < 0) {
      return record_failure(range, text, p,
                            std::string(names[i]) + " vertex id " + std::to_string(id[i]) +
                                " is negative (ids are 0-based)");
    }
    if (id[i] >= max_vertices) {
      return record_failure(range, text, p,
                            std::string(names[i]) + " vertex id " + std::to_string(id[i]) +
                                " is beyond the limit of " + std::to_string(max_vertices) +
                                " vertices",
                            true);
    }
    p = token_stop;
  }
  double weight = 1.0;
  p = skip_blanks(p, stop);
  if (p < stop && *p != '\n') {
    const char* token_stop = token_end(p, stop);
    if (!parse_real(p, token_stop, weight)) {
      return record_failure(range, text, p,
                            "weight " + quoted(p, token_stop) + " is not a finite real number");
    }
    p = skip_blanks(token_stop, stop);
    if (p < stop && *p != '\n') {
      return record_failure(
          range, text, p,
          "unexpected " + quoted(p, token_end(p, stop)) + " (an edge is 'u v' or 'u v weight')");
    }
  }
  range.entries.add(static_cast<int32_t>(id[0]), static_cast<int32_t>(id[1]), weight);
  return p < stop ? p + 1 : p;
}

ScannedRange scan_edges(std::string_view text, size_t begin, size_t end, int64_t max_vertices) {
  ScannedRange range;
  range.entries.reserve((end - begin) / 8);  // a typical "12345 67890\n" line; only a guess
  const char* p = text.data() + begin;
  const char* const stop = text.data() + end;
  while (p && p < stop) {
    p = skip_blanks(p, stop);
    if (p == stop) break;
    if (*p == '\n' || kCommentChars.find(*p) != std::string_view::npos) {
      p = next_line_start(p, stop);
      continue;
    }
    p = parse_edge(p, stop, text, max_vertices, range);
  }
  return range;
}

}  // namespace

CsrF64 parse_edge_list(TextSource& source, const ReadLimits& limits, bool symmetrize) {
  const int64_t max_vertices =
      std::min({limits.max_rows, limits.max_cols, int64_t{std::numeric_limits<int32_t>::max()}});
  const Mirror mirror = symmetrize ? Mirror::Symmetric : Mirror::None;
  // Symmetrizing may double every edge, so fewer of them fit under the entry limit.
  const int64_t max_edges = symmetrize ? limits.max_entries / 2 : limits.max_entries;
  LineChunks chunks(source);
  std::vector<CooPart> parts;
  int64_t edges = 0;
  for (std::string_view piece = chunks.next(); !piece.empty(); piece = chunks.next()) {
    throw_if_cancelled();
    const EntryCap cap{max_edges - edges,
                       "more than " + std::to_string(max_edges) + " edges" +
                           (symmetrize ? " (the limit, halved by symmetrizing; --max-nnz)" : " (the limit, --max-nnz)"),
                       true};
    std::vector<CooPart> scanned = scan_entry_lines(
        piece, 0, chunks.first_line(), kCommentChars, cap,
        [&](size_t begin, size_t end) { return scan_edges(piece, begin, end, max_vertices); });
    for (CooPart& part : scanned) {
      edges += static_cast<int64_t>(part.size());
      parts.push_back(std::move(part));
    }
    // No declared size to check against: the text may only be as long as the edges read need.
    if (chunks.bytes_read() > max_text_bytes(edges, limits))
      throw LimitError("the first " + std::to_string(chunks.bytes_read()) + " bytes of the edge list hold only " +
                       std::to_string(edges) + " edges (" + std::to_string(limits.bytes_per_entry) +
                       " bytes an edge, --max-bytes-per-nnz, and " + std::to_string(limits.text_slack_bytes) +
                       " bytes of comments, --max-comment-kb, are allowed)");
  }
  int32_t largest_id = -1;
  for (const auto& part : parts) {
    if (part.size() == 0) continue;
    largest_id = std::max({largest_id, *std::max_element(part.row.begin(), part.row.end()),
                           *std::max_element(part.col.begin(), part.col.end())});
  }
  if (largest_id < 0) {
    throw InputError("the edge list holds no edges (lines 'u v' or 'u v weight')");
  }
  check_matrix_size(int64_t{largest_id} + 1, int64_t{largest_id} + 1, edges, limits);
  throw_if_cancelled();
  return build_csr(largest_id + 1, largest_id + 1, std::move(parts), mirror, Duplicates::KeepFirst);
}

CsrF64 parse_edge_list(std::string_view text, const ReadLimits& limits, bool symmetrize) {
  return parse_edge_list(*text_from_bytes(text), limits, symmetrize);
}

}  // namespace ktune
