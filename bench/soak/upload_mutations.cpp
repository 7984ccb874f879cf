#include "bench/soak/upload_mutations.h"

#include <functional>

#include "bench/soak/random_pick.h"
#include "workload/gzip.h"

namespace ktune::soak {
namespace {

using Rng = std::mt19937_64;

const std::vector<std::string> kInvalidUtf8 = {
    "\xff\xfe", "\xc3\x28", "\xe2\x82", "\xed\xa0\x80", "\xc0\xaf", "\xf8\x88\x80\x80\x80", "\x80", "\xfe\xff\xfe\xff"};

// Sizes past every limit or not numbers at all, negative ones, and large but legal ones,
// kept to 2^22 so that a fuzz run stays bounded on a small machine.
const std::vector<std::string> kSizeNumbers = {"2147483648",
                                               "268435457",
                                               "9223372036854775807",
                                               "9223372036854775808",
                                               "18446744073709551616",
                                               "99999999999999999999999999999999",
                                               "-1",
                                               "-2147483648",
                                               "-9223372036854775808",
                                               "0",
                                               "1e30",
                                               "1e400",
                                               "nan",
                                               "inf",
                                               "0x10",
                                               "+5",
                                               "4194304",
                                               "1.5"};

const std::vector<std::string> kEntryNumbers = {"0",       "-1",     "2147483648", "99999999999999999999",
                                                "1e999",   "-1e999", "nan",        "inf",
                                                "-inf",    "1e-400", "0x1p3",      "1.5",
                                                "4194304", "+3",     "-0",         "1e5",
                                                "--1",     "1..2",   "e",          ""};

const std::vector<std::string> kBanners = {
    "",
    "%%MatrixMarket",
    "%%MatrixMarket matrix coordinate complex general",
    "%%MatrixMarket matrix array real general",
    "%%MatrixMarket matrix coordinate real hermitian",
    "%%matrixmarket MATRIX Coordinate REAL General",
    "%%MatrixMarket matrix coordinate real general extra",
    "%%MatrixMarket tensor coordinate real general",
    "%MatrixMarket matrix coordinate real general",
    "%%MatrixMarket matrix coordinate real general\n%%MatrixMarket matrix coordinate real general"};

// Start offsets of the lines of `text`.
std::vector<size_t> line_starts(const std::string& text) {
  std::vector<size_t> starts = {0};
  for (size_t i = 0; i + 1 < text.size(); ++i)
    if (text[i] == '\n') starts.push_back(i + 1);
  return starts;
}

size_t line_end(const std::string& text, size_t start) {
  const size_t end = text.find('\n', start);
  return end == std::string::npos ? text.size() : end;
}

// The line after the banner and comments (the size line), or the last line.
size_t size_line(const std::string& text) {
  const std::vector<size_t> starts = line_starts(text);
  for (size_t i = 1; i < starts.size(); ++i)
    if (text[starts[i]] != '%') return starts[i];
  return starts.back();
}

// Replaces the `index`-th blank-separated token of the line starting at `start`.
void replace_token(std::string& text, size_t start, size_t index, const std::string& with) {
  const size_t end = line_end(text, start);
  size_t p = start;
  for (size_t t = 0; p < end; ++t) {
    while (p < end && (text[p] == ' ' || text[p] == '\t')) ++p;
    size_t q = p;
    while (q < end && text[q] != ' ' && text[q] != '\t') ++q;
    if (t == index || q >= end) {
      text.replace(p, q - p, with);
      return;
    }
    p = q;
  }
  text.insert(end, " " + with);
}

using Mutation = std::function<std::string(std::string&, Rng&)>;

const std::vector<Mutation>& mutations() {
  static const std::vector<Mutation> all = {
      [](std::string& t, Rng& rng) {
        const size_t n = 1 + below(rng, 8);
        for (size_t i = 0; i < n && !t.empty(); ++i) t[below(rng, t.size())] = static_cast<char>(below(rng, 256));
        return std::to_string(n) + " byte flips";
      },
      [](std::string& t, Rng& rng) {
        t.resize(below(rng, t.size() + 1));
        return "truncated to " + std::to_string(t.size()) + " bytes";
      },
      [](std::string& t, Rng& rng) {
        const std::string& bad = one_of(rng, kInvalidUtf8);
        const size_t at = below(rng, t.size() + 1);
        t.insert(at, bad);
        return "invalid UTF-8 at byte " + std::to_string(at);
      },
      [](std::string& t, Rng& rng) {
        const std::string& n = one_of(rng, kSizeNumbers);
        const size_t which = below(rng, 3);
        replace_token(t, size_line(t), which, n);
        return std::string(which == 0 ? "rows" : which == 1 ? "cols" : "entries") + " in the size line -> " + n;
      },
      [](std::string& t, Rng& rng) {
        const std::string& n = one_of(rng, kEntryNumbers);
        const std::vector<size_t> starts = line_starts(t);
        const size_t line = below(rng, starts.size());
        const size_t which = below(rng, 3);
        replace_token(t, starts[line], which, n);
        return "token " + std::to_string(which) + " of line " + std::to_string(line + 1) + " -> '" + n + "'";
      },
      [](std::string& t, Rng& rng) {
        static const std::vector<std::string> extra = {" 7", " x", " 1 2 3", " %", " \xff", " 1e5 1e5"};
        const std::vector<size_t> starts = line_starts(t);
        const size_t line = below(rng, starts.size());
        t.insert(line_end(t, starts[line]), one_of(rng, extra));
        return "extra token on line " + std::to_string(line + 1);
      },
      [](std::string& t, Rng& rng) {
        const size_t n = 1 + below(rng, 4);
        for (size_t i = 0; i < n; ++i) t.insert(below(rng, t.size() + 1), 1, '\0');
        return std::to_string(n) + " NULs";
      },
      [](std::string& t, Rng& rng) {
        static const std::vector<size_t> lengths = {4096, 65536, size_t{1} << 20, size_t{4} << 20};
        const size_t length = one_of(rng, lengths);
        const size_t kind = below(rng, 3);
        const std::vector<size_t> starts = line_starts(t);
        const size_t line = below(rng, starts.size());
        if (kind == 0) t.insert(starts[line], "%" + std::string(length, 'a') + "\n");
        if (kind == 1) t.insert(line_end(t, starts[line]), " " + std::string(length, '7'));
        if (kind == 2) t.insert(starts[line], std::string(length, ' '));
        static const char* kinds[] = {"comment line", "digits", "blanks"};
        return std::string("long ") + kinds[kind] + " (" + std::to_string(length) + " bytes) at line " +
               std::to_string(line + 1);
      },
      [](std::string& t, Rng& rng) {
        const std::string& banner = one_of(rng, kBanners);
        t.replace(0, line_end(t, 0), banner);
        return "banner -> '" + banner.substr(0, banner.find('\n')) + "'";
      },
      [](std::string& t, Rng& rng) {
        const std::string ending = below(rng, 2) ? "\r\n" : "\r";
        std::string out;
        for (char c : t) out += c == '\n' ? ending : std::string(1, c);
        t = out;
        return std::string(ending == "\r" ? "CR" : "CRLF") + " line endings";
      },
      [](std::string& t, Rng& rng) {
        const std::vector<size_t> starts = line_starts(t);
        const size_t from = starts[below(rng, starts.size())];
        const std::string line = t.substr(from, line_end(t, from) - from);
        if (below(rng, 2)) {
          t += (t.empty() || t.back() == '\n' ? "" : "\n") + line + "\n";
          return std::string("a line repeated at the end");
        }
        t.erase(from, line.size() + 1);
        return std::string("a line removed");
      },
  };
  return all;
}

std::string garbage(Rng& rng, size_t n) {
  std::string bytes(n, '\0');
  for (char& c : bytes) c = static_cast<char>(below(rng, 256));
  return bytes;
}

// Bodies that are not a mutated matrix at all.
FuzzedBody whole_body(const std::vector<std::string>& seeds, Rng& rng) {
  switch (below(rng, 9)) {
    case 0:
      return {"", "empty body"};
    case 1:
      return {garbage(rng, 1 + below(rng, 4096)), "random bytes"};
    case 2:
      return {gzip_compress(garbage(rng, 1 + below(rng, 65536))), "gzip of random bytes"};
    case 3:
      return {"\x1f\x8b", "the gzip magic alone"};
    case 4:
      return {std::string("\x1f\x8b\x08", 3) + garbage(rng, below(rng, 512)), "gzip header then garbage"};
    case 5:
      return {gzip_compress(""), "gzip of nothing"};
    case 6:
      return {gzip_compress(gzip_compress(one_of(rng, seeds))), "gzip of a gzip of a valid matrix"};
    case 7:
      return {std::string(1 + below(rng, 4096), below(rng, 2) ? ' ' : '\n'), "blanks only"};
    default:
      return {"%%MatrixMarket matrix coordinate real general", "a banner alone"};
  }
}

// Wraps in gzip, sometimes broken: truncated, a byte flipped, garbage after it, or two members.
void gzip_wrap(FuzzedBody& body, Rng& rng) {
  body.bytes = gzip_compress(body.bytes, 1 + static_cast<int>(below(rng, 9)));
  switch (below(rng, 6)) {
    case 0:
      body.bytes.resize(below(rng, body.bytes.size()));
      body.description += " | gzip, truncated";
      return;
    case 1:
      if (body.bytes.size() > 10) body.bytes[10 + below(rng, body.bytes.size() - 10)] ^= 0x5a;
      body.description += " | gzip, a byte flipped";
      return;
    case 2:
      body.bytes += garbage(rng, 1 + below(rng, 64));
      body.description += " | gzip, garbage after it";
      return;
    case 3:
      body.bytes += gzip_compress("1 1 1\n");
      body.description += " | gzip, a second member";
      return;
    default:
      body.description += " | gzip";
  }
}

}  // namespace

FuzzedBody fuzz_upload(const std::vector<std::string>& seeds, Rng& rng) {
  if (below(rng, 100) < 6) return whole_body(seeds, rng);
  const size_t seed = below(rng, seeds.size());
  FuzzedBody body{seeds[seed], "matrix " + std::to_string(seed)};
  const size_t count = 1 + below(rng, 3);
  for (size_t i = 0; i < count; ++i) body.description += " | " + one_of(rng, mutations())(body.bytes, rng);
  if (below(rng, 100) < 35) gzip_wrap(body, rng);
  return body;
}

}  // namespace ktune::soak
