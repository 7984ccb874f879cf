#include "workload/matrix_market.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <vector>

#include "workload/cancellation.h"
#include "workload/csr_builder.h"
#include "workload/line_chunks.h"
#include "workload/input_error.h"
#include "workload/text_scan.h"

namespace ktune {
namespace {

enum class Field { Real, Integer, Pattern };

struct Header {
  Field field = Field::Real;
  Mirror mirror = Mirror::None;
  int64_t rows = 0, cols = 0, entries = 0;
  size_t body_offset = 0;  // first byte after the size line
};

// Reads the header line by line; it is a few lines, so it may keep a line count.
class HeaderReader {
 public:
  explicit HeaderReader(std::string_view text) : text_(text) {}

  Header read(const ReadLimits& limits) {
    Header header;
    read_banner(header);
    skip_comments(limits.text_slack_bytes);
    read_size_line(header, limits);
    return header;
  }

 private:
  std::string_view next_line() {
    const char* begin = text_.data() + pos_;
    const char* end = line_end(begin, text_.data() + text_.size());
    pos_ = std::min(text_.size(), static_cast<size_t>(end - text_.data()) + 1);
    ++line_;
    return {begin, static_cast<size_t>(end - begin)};
  }

  [[noreturn]] void fail(const std::string& message, bool limit = false) const {
    const std::string full = "line " + std::to_string(line_) + ": " + message;
    if (limit) throw LimitError(full);
    throw InputError(full);
  }

  static std::vector<std::string> lowercase_tokens(std::string_view line) {
    std::vector<std::string> tokens;
    const char* p = line.data();
    const char* end = p + line.size();
    while ((p = skip_blanks(p, end)) < end) {
      const char* stop = token_end(p, end);
      std::string token(p, stop);
      for (char& c : token) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      tokens.push_back(std::move(token));
      p = stop;
    }
    return tokens;
  }

  void read_banner(Header& header) {
    const std::string expected =
        "expected a banner such as '%%MatrixMarket matrix coordinate real general'";
    const auto tokens = lowercase_tokens(next_line());
    if (text_.empty()) fail("the input is empty; " + expected);
    if (tokens.empty() || tokens[0] != "%%matrixmarket") {
      fail("missing Matrix Market banner; " + expected);
    }
    if (tokens.size() != 5) {
      fail("the banner has " + std::to_string(tokens.size()) + " words; " + expected);
    }
    if (tokens[1] != "matrix") fail("object '" + tokens[1] + "' is not supported (only 'matrix')");
    if (tokens[2] == "array") {
      fail("dense 'array' format is not supported; store the matrix in 'coordinate' format");
    }
    if (tokens[2] != "coordinate") {
      fail("unknown format '" + tokens[2] + "' (expected 'coordinate')");
    }
    if (tokens[3] == "real" || tokens[3] == "double") {
      header.field = Field::Real;
    } else if (tokens[3] == "integer") {
      header.field = Field::Integer;
    } else if (tokens[3] == "pattern") {
      header.field = Field::Pattern;
    } else if (tokens[3] == "complex") {
      fail("complex values are not supported (only real, integer or pattern)");
    } else {
      fail("unknown field '" + tokens[3] + "' (expected real, integer or pattern)");
    }
    if (tokens[4] == "general") {
      header.mirror = Mirror::None;
    } else if (tokens[4] == "symmetric") {
      header.mirror = Mirror::Symmetric;
    } else if (tokens[4] == "skew-symmetric") {
      header.mirror = Mirror::SkewSymmetric;
    } else if (tokens[4] == "hermitian") {
      fail("hermitian matrices are not supported (only general, symmetric or skew-symmetric)");
    } else {
      fail("unknown symmetry '" + tokens[4] + "' (expected general, symmetric or skew-symmetric)");
    }
  }

  void skip_comments(size_t max_header_bytes) {
    while (pos_ < text_.size()) {
      if (pos_ > max_header_bytes)
        fail("the banner and comments before the size line take more than " + std::to_string(max_header_bytes) +
                 " bytes (--max-comment-kb)",
             true);
      const char* p = text_.data() + pos_;
      const char* first = skip_blanks(p, text_.data() + text_.size());
      if (first < text_.data() + text_.size() && *first != '%' && *first != '\n') return;
      next_line();
    }
  }

  void read_size_line(Header& header, const ReadLimits& limits) {
    if (pos_ >= text_.size()) {
      ++line_;
      fail("missing size line 'rows columns entries' after the banner");
    }
    const std::string_view line = next_line();
    const char* p = line.data();
    const char* end = p + line.size();
    int64_t numbers[3] = {0, 0, 0};
    const char* names[3] = {"row count", "column count", "entry count"};
    for (int i = 0; i < 3; ++i) {
      p = skip_blanks(p, end);
      const char* stop = token_end(p, end);
      if (p == stop) {
        fail("the size line needs 3 numbers 'rows columns entries', found " + std::to_string(i));
      }
      if (!parse_integer(p, stop, numbers[i])) {
        fail("the " + std::string(names[i]) + " " + quoted(p, stop) +
             " is not an integer (or is absurdly large)");
      }
      if (numbers[i] < 0) {
        fail("the " + std::string(names[i]) + " " + std::to_string(numbers[i]) + " is negative");
      }
      p = stop;
    }
    p = skip_blanks(p, end);
    if (p < end) {
      fail("unexpected " + quoted(p, token_end(p, end)) + " after 'rows columns entries'");
    }
    header.rows = numbers[0];
    header.cols = numbers[1];
    header.entries = numbers[2];
    header.body_offset = pos_;
    check_sizes(header, limits);
  }

  void check_sizes(const Header& h, const ReadLimits& limits) const {
    if (h.mirror != Mirror::None && h.rows != h.cols) {
      fail("a symmetric or skew-symmetric matrix must be square, not " + std::to_string(h.rows) +
           " x " + std::to_string(h.cols));
    }
    try {
      check_matrix_size(h.rows, h.cols, h.entries, limits);
    } catch (const LimitError& e) {
      fail(e.what(), true);
    }
    if (mirrored_entry_bound(h.entries, h.mirror) > std::numeric_limits<int32_t>::max()) {
      fail(std::to_string(h.entries) + " entries may mirror to more than 2^31-1", true);
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
  int64_t line_ = 0;
};

// Parses the entry line starting at `p` into range.entries; returns the start of the next
// line, or nullptr once range.failure says what is wrong.
const char* parse_entry(const char* p, const char* stop, std::string_view text, const Header& h,
                        ScannedRange& range) {
  int64_t index[2];
  const char* names[2] = {"row", "column"};
  const int64_t extent[2] = {h.rows, h.cols};
  for (int i = 0; i < 2; ++i) {
    p = skip_blanks(p, stop);
    const char* token_stop = token_end(p, stop);
    if (p == token_stop) {
      return record_failure(range, text, p, std::string("missing ") + names[i] + " index");
    }
    if (!parse_integer(p, token_stop, index[i])) {
      return record_failure(
          range, text, p,
          std::string(names[i]) + " index " + quoted(p, token_stop) + " is not an integer");
    }
    if (index[i] < 1 || index[i] > extent[i]) {
      return record_failure(range, text, p,
                            std::string(names[i]) + " index " + std::to_string(index[i]) +
                                " out of range 1.." + std::to_string(extent[i]));
    }
    p = token_stop;
  }
  double value = 1.0;
  if (h.field != Field::Pattern) {
    p = skip_blanks(p, stop);
    const char* token_stop = token_end(p, stop);
    if (p == token_stop) {
      return record_failure(range, text, p, "missing value after the row and column indices");
    }
    int64_t integer = 0;
    if (h.field == Field::Integer) {
      if (!parse_integer(p, token_stop, integer)) {
        return record_failure(
            range, text, p,
            "value " + quoted(p, token_stop) + " is not an integer (the banner says 'integer')");
      }
      value = static_cast<double>(integer);
    } else if (!parse_real(p, token_stop, value)) {
      return record_failure(range, text, p,
                            "value " + quoted(p, token_stop) + " is not a finite real number");
    }
    p = token_stop;
  }
  p = skip_blanks(p, stop);
  if (p < stop && *p != '\n') {
    return record_failure(range, text, p,
                          "unexpected " + quoted(p, token_end(p, stop)) + " after the entry (" +
                              (h.field == Field::Pattern ? "a pattern entry is 'row column'"
                                                         : "an entry is 'row column value'") +
                              ")");
  }
  if (h.mirror == Mirror::SkewSymmetric && index[0] == index[1]) {
    return record_failure(
        range, text, p,
        "diagonal entry (" + std::to_string(index[0]) + ", " + std::to_string(index[1]) +
            ") in a skew-symmetric matrix, whose diagonal is zero and not stored");
  }
  range.entries.add(static_cast<int32_t>(index[0] - 1), static_cast<int32_t>(index[1] - 1), value);
  return p < stop ? p + 1 : p;
}

// Parses the entry lines in text[begin, end); stops at the first malformed one.
ScannedRange scan_entries(std::string_view text, size_t begin, size_t end, const Header& h, int64_t remaining) {
  ScannedRange range;
  // The entries still declared, bounded by what the bytes can hold ("1 1\n").
  range.entries.reserve(std::min(static_cast<size_t>(remaining) + 1, (end - begin) / 4 + 1));
  const char* p = text.data() + begin;
  const char* const stop = text.data() + end;
  while (p && p < stop) {
    p = skip_blanks(p, stop);
    if (p == stop) break;
    if (*p == '\n' || *p == '%') {
      p = next_line_start(p, stop);
      continue;
    }
    p = parse_entry(p, stop, text, h, range);
  }
  return range;
}

}  // namespace

CsrF64 parse_matrix_market(TextSource& source, const ReadLimits& limits) {
  LineChunks chunks(source);
  std::string_view piece = chunks.next();
  const Header h = HeaderReader(piece).read(limits);
  const uint64_t most_bytes = h.body_offset + max_text_bytes(h.entries, limits);
  std::vector<CooPart> parts;
  int64_t found = 0;
  for (size_t begin = h.body_offset; !piece.empty(); piece = chunks.next(), begin = 0) {
    throw_if_cancelled();
    if (chunks.bytes_read() > most_bytes)
      throw LimitError("the text goes on past " + std::to_string(most_bytes) + " bytes, more than " +
                       std::to_string(h.entries) + " entries need (" + std::to_string(limits.bytes_per_entry) +
                       " bytes an entry, --max-bytes-per-nnz, and " + std::to_string(limits.text_slack_bytes) +
                       " bytes of comments, --max-comment-kb)");
    const EntryCap cap{h.entries - found,
                       "more entries than the " + std::to_string(h.entries) + " the size line declares"};
    std::vector<CooPart> scanned =
        scan_entry_lines(piece, begin, chunks.first_line(), "%", cap, [&](size_t range_begin, size_t range_end) {
          return scan_entries(piece, range_begin, range_end, h, h.entries - found);
        });
    for (CooPart& part : scanned) {
      found += static_cast<int64_t>(part.size());
      parts.push_back(std::move(part));
    }
  }
  if (found < h.entries) {
    throw InputError("line " + std::to_string(chunks.first_line()) + ": the input ends after " + std::to_string(found) +
                     " of the " + std::to_string(h.entries) + " entries the size line declares (truncated?)");
  }
  throw_if_cancelled();
  return build_csr(static_cast<int32_t>(h.rows), static_cast<int32_t>(h.cols), std::move(parts),
                   h.mirror, Duplicates::Sum);
}

CsrF64 parse_matrix_market(std::string_view text, const ReadLimits& limits) {
  return parse_matrix_market(*text_from_bytes(text), limits);
}

CsrF64 read_matrix_market_file(const std::string& path, const ReadLimits& limits) {
  try {
    return parse_matrix_market(*text_from_file(path), limits);
  } catch (const NotFoundError&) {
    throw;
  } catch (const LimitError& e) {
    throw LimitError(path + ": " + e.what());
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
}

void write_matrix_market(const CsrF64& matrix, std::ostream& out) {
  std::string buffer = "%%MatrixMarket matrix coordinate real general\n" +
                       std::to_string(matrix.rows) + " " + std::to_string(matrix.cols) + " " +
                       std::to_string(matrix.nnz()) + "\n";
  constexpr size_t kFlushAt = 1 << 20;
  // Two int32 and a shortest-round-trip double take at most 11 + 11 + 24 characters;
  // to_chars stops at `limit`, which leaves the separators room in any case.
  char line[80];
  char* const limit = line + 64;
  buffer.reserve(kFlushAt + sizeof line);
  for (int32_t r = 0; r < matrix.rows; ++r) {
    for (int32_t k = matrix.row_ptr[r]; k < matrix.row_ptr[r + 1]; ++k) {
      char* p = std::to_chars(line, limit, r + 1).ptr;
      *p++ = ' ';
      p = std::to_chars(p, limit, matrix.col_idx[k] + 1).ptr;
      *p++ = ' ';
      p = std::to_chars(p, limit, matrix.values[k]).ptr;
      *p++ = '\n';
      buffer.append(line, p);
      if (buffer.size() >= kFlushAt) {
        out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        buffer.clear();
      }
    }
  }
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
}

}  // namespace ktune
