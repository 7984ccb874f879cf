#include "workload/text_scan.h"

#include <algorithm>
#include <cmath>

#include "workload/input_error.h"
#include "workload/parallel.h"

namespace ktune {
namespace {

// Below this many bytes per thread, starting a thread costs more than it saves.
constexpr int64_t kMinBytesPerThread = 1 << 20;

// parts + 1 ascending offsets from begin to end, each (but end) at the start of a line.
std::vector<size_t> line_aligned_cuts(std::string_view text, size_t begin, size_t end, int parts) {
  std::vector<size_t> cuts{begin};
  for (int i = 1; i < parts; ++i) {
    const size_t cut = std::max(
        cuts.back(), begin + (end - begin) * static_cast<size_t>(i) / static_cast<size_t>(parts));
    cuts.push_back(
        static_cast<size_t>(next_line_start(text.data() + cut, text.data() + end) - text.data()));
  }
  cuts.push_back(end);
  return cuts;
}

// Byte offset of the n-th (0-based) data line of text[begin, end); `end` when there are fewer.
size_t offset_of_data_line(std::string_view text, size_t begin, size_t end, size_t n,
                           std::string_view comment_chars) {
  const char* p = text.data() + begin;
  const char* const stop = text.data() + end;
  while (p < stop) {
    const char* first = skip_blanks(p, stop);
    if (first == stop) break;
    if (*first != '\n' && comment_chars.find(*first) == std::string_view::npos && n-- == 0) {
      return static_cast<size_t>(first - text.data());
    }
    p = next_line_start(first, stop);
  }
  return end;
}

}  // namespace

bool parse_real(const char* p, const char* end, double& out) {
  if (end - p > 1 && *p == '+' && p[1] != '-') ++p;  // from_chars takes no '+'
  const auto [stop, error] = std::from_chars(p, end, out);
  return error == std::errc() && stop == end && p < end && std::isfinite(out);
}

std::string quoted(const char* p, const char* end) {
  constexpr ptrdiff_t kShown = 40;
  const char* shown_end = end - p <= kShown ? end : p + kShown;
  // Bytes outside printable ASCII are shown as \xNN, so a message is valid UTF-8 whatever it quotes.
  std::string out = "'";
  for (const char* c = p; c < shown_end; ++c) {
    const auto byte = static_cast<unsigned char>(*c);
    if (byte >= 0x20 && byte < 0x7f) {
      out += *c;
    } else {
      static const char* hex = "0123456789abcdef";
      out += {'\\', 'x', hex[byte >> 4], hex[byte & 15]};
    }
  }
  return out + (shown_end < end ? "...'" : "'");
}

int64_t line_number_at(std::string_view text, size_t offset, int64_t first_line) {
  offset = std::min(offset, text.size());
  return first_line + std::count(text.begin(), text.begin() + static_cast<ptrdiff_t>(offset), '\n');
}

void throw_at_line(std::string_view text, size_t offset, const std::string& message, bool limit, int64_t first_line) {
  const std::string full = "line " + std::to_string(line_number_at(text, offset, first_line)) + ": " + message;
  if (limit) throw LimitError(full);
  throw InputError(full);
}

std::vector<CooPart> scan_entry_lines(
    std::string_view text, size_t begin, int64_t first_line, std::string_view comment_chars, const EntryCap& cap,
    const std::function<ScannedRange(size_t, size_t)>& scan_range) {
  const int threads = worker_count(static_cast<int64_t>(text.size() - begin), kMinBytesPerThread);
  const std::vector<size_t> cuts = line_aligned_cuts(text, begin, text.size(), threads);
  std::vector<ScannedRange> ranges(static_cast<size_t>(threads));
  parallel_for(threads, threads, [&](int t) { ranges[t] = scan_range(cuts[t], cuts[t + 1]); });

  int64_t entries_before = 0;
  for (int t = 0; t < threads; ++t) {
    const auto count = static_cast<int64_t>(ranges[t].entries.size());
    if (entries_before + count > cap.max_entries) {
      const auto first_beyond = static_cast<size_t>(cap.max_entries - entries_before);
      throw_at_line(text, offset_of_data_line(text, cuts[t], cuts[t + 1], first_beyond, comment_chars),
                    cap.message, cap.limit, first_line);
    }
    if (const auto& failure = ranges[t].failure) {
      throw_at_line(text, failure->offset, failure->message, failure->limit, first_line);
    }
    entries_before += count;
  }
  std::vector<CooPart> parts;
  for (auto& range : ranges) parts.push_back(std::move(range.entries));
  return parts;
}

}  // namespace ktune
