#pragma once
// Token scanning for the line-oriented text formats (Matrix Market, edge lists). The hot
// loops work on raw pointers and std::from_chars; line numbers are recovered from a byte
// offset only when something is wrong, so parsing never counts lines.
#include <charconv>
#include <cstddef>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "workload/csr_builder.h"

namespace ktune {

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

inline const char* skip_blanks(const char* p, const char* end) {
  while (p < end && is_blank(*p)) ++p;
  return p;
}

inline const char* token_end(const char* p, const char* end) {
  while (p < end && !is_blank(*p) && *p != '\n') ++p;
  return p;
}

inline const char* line_end(const char* p, const char* end) {
  const void* newline = std::memchr(p, '\n', static_cast<size_t>(end - p));
  return newline ? static_cast<const char*>(newline) : end;
}

// Start of the line after the one holding `p`.
inline const char* next_line_start(const char* p, const char* end) {
  const char* stop = line_end(p, end);
  return stop < end ? stop + 1 : stop;
}

// True when [p, end) is exactly one integer that fits Int.
template <typename Int>
bool parse_integer(const char* p, const char* end, Int& out) {
  if (end - p > 1 && *p == '+' && p[1] != '-') ++p;  // from_chars takes no '+'
  const auto [stop, error] = std::from_chars(p, end, out);
  return error == std::errc() && stop == end && p < end;
}

// True when [p, end) is exactly one finite real number.
bool parse_real(const char* p, const char* end, double& out);

// A token as it should appear in an error message: quoted and cut short.
std::string quoted(const char* p, const char* end);

// 1-based number of the line holding byte `offset` of `text`, whose first line is `first_line`.
int64_t line_number_at(std::string_view text, size_t offset, int64_t first_line = 1);

// "line N: message" as an InputError, or as a LimitError when `limit` is set; `text` is a
// piece of a larger text starting at line `first_line`.
[[noreturn]] void throw_at_line(std::string_view text, size_t offset, const std::string& message,
                                bool limit = false, int64_t first_line = 1);

// A problem found while scanning a range of lines on some thread; turned into an error
// only if no earlier range failed.
struct ScanFailure {
  size_t offset = 0;
  std::string message;
  bool limit = false;  // LimitError rather than InputError
};

// What one thread read from its range of entry lines, up to its first problem if any.
struct ScannedRange {
  CooPart entries;
  std::optional<ScanFailure> failure;
};

// Records in `range` that something is wrong at `at` (a pointer into `text`); returns
// nullptr so that a line parser can `return record_failure(...)`.
inline const char* record_failure(ScannedRange& range, std::string_view text, const char* at,
                                  std::string message, bool limit = false) {
  range.failure = ScanFailure{static_cast<size_t>(at - text.data()), std::move(message), limit};
  return nullptr;
}

// The most entry lines a text may hold, and what to say (at the line past it) otherwise.
struct EntryCap {
  int64_t max_entries = 0;
  std::string message;
  bool limit = false;  // LimitError rather than InputError
};

// Cuts text[begin, end of text) into line-aligned ranges, scans them on several threads
// with `scan_range(range_begin, range_end)`, and returns their entries in text order. The
// problem that comes first in the text is thrown with its line number (counted from
// `first_line`, the number of text's first line): a range's failure or the data line
// (neither blank nor starting with one of `comment_chars`) beyond the cap.
std::vector<CooPart> scan_entry_lines(
    std::string_view text, size_t begin, int64_t first_line, std::string_view comment_chars, const EntryCap& cap,
    const std::function<ScannedRange(size_t, size_t)>& scan_range);

}  // namespace ktune
