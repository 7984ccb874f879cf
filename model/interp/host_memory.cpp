#include "model/interp/host_memory.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "workload/input_error.h"

namespace ktune::interp {

namespace {

constexpr uint64_t kFirstBuffer = uint64_t{1} << 40;
constexpr uint64_t kAlignment = 4096;
constexpr uint64_t kGuardGap = 4096;
constexpr uint64_t kUndoPage = 4096;

// Large zeroed buffers come straight from mmap: the kernel hands out zero pages as they are
// touched, so an output the sampled blocks barely write costs nothing. calloc would not
// promise that: glibc raises its mmap threshold after each large free, and from then on serves
// the next candidate's buffers from the heap and zeroes them with memset (tens of MB per
// candidate). Small ones come from calloc, which reuses pages already faulted in.
constexpr size_t kMappedBytes = size_t{1} << 20;

std::shared_ptr<std::byte> allocate(size_t bytes, bool poison) {
  const size_t n = std::max<size_t>(bytes, 1);
  if (poison || n < kMappedBytes) {
    void* p = poison ? std::malloc(n) : std::calloc(n, 1);
    if (!p) throw std::bad_alloc();
    if (poison) std::memset(p, 0xFF, n);
    return std::shared_ptr<std::byte>(static_cast<std::byte*>(p), [](std::byte* q) { std::free(q); });
  }
  void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return std::shared_ptr<std::byte>(static_cast<std::byte*>(p), [n](std::byte* q) { munmap(q, n); });
}

}  // namespace

HostMemory::HostMemory(const LaunchPlan& plan, Fill fill) {
  uint64_t next = kFirstBuffer;
  for (const DeviceBuffer& b : plan.buffers) {
    Segment s;
    s.name = b.name;
    s.base = next;
    s.size = std::max<uint64_t>(b.size, b.bytes.size());
    if (!b.bytes.empty() && b.bytes.size() == s.size) {
      s.input = b.bytes;
      s.data = reinterpret_cast<const std::byte*>(s.input.data());
    } else {
      const bool zero = fill == Fill::Zero;
      s.owned = allocate(s.size, !zero && b.bytes.empty());
      if (!b.bytes.empty()) std::memcpy(s.owned.get(), b.bytes.data(), b.bytes.size());
      s.data = s.writable = s.owned.get();
    }
    next = (s.base + s.size + kGuardGap + kAlignment - 1) / kAlignment * kAlignment;
    if (next >= kSharedWindow) throw LimitError("buffers too large for the interpreter's address space");
    segments_.push_back(std::move(s));
  }
  if (segments_.empty()) segments_.push_back(Segment{});  // find() may always look at one
}

HostMemory::Segment* HostMemory::find_slow(uint64_t address, uint32_t size) {
  for (size_t i = 0; i < segments_.size(); ++i) {
    Segment& s = segments_[i];
    if (address >= s.base && address + size <= s.base + s.size) {
      last_ = i;
      return &s;
    }
  }
  return nullptr;
}

void HostMemory::make_writable(Segment& s) {
  s.owned = allocate(s.size, false);
  std::memcpy(s.owned.get(), s.data, s.size);
  s.data = s.writable = s.owned.get();
  s.input = HostBytes();
}

const HostMemory::Segment& HostMemory::segment(const std::string& name) const {
  for (const Segment& s : segments_) {
    if (s.name == name && !name.empty()) return s;
  }
  throw NotFoundError("launch plan has no buffer " + name);
}

uint64_t HostMemory::address_of(const std::string& buffer) const { return segment(buffer).base; }

std::string_view HostMemory::bytes_of(const std::string& buffer) const {
  const auto [data, size] = buffer_bytes(buffer);
  return {reinterpret_cast<const char*>(data), size};
}

void HostMemory::fill(const std::string& buffer, uint32_t word) {
  Segment& s = const_cast<Segment&>(segment(buffer));
  if (!s.writable) make_writable(s);
  for (uint64_t at = 0; at + sizeof word <= s.size; at += sizeof word) std::memcpy(s.writable + at, &word, sizeof word);
}

void HostMemory::copy(const std::string& from, const std::string& to) {
  const Segment& source = segment(from);
  Segment& target = const_cast<Segment&>(segment(to));
  if (source.size != target.size) throw InputError("a copy from " + from + " to " + to + " joins buffers of different sizes");
  if (!target.writable) make_writable(target);
  std::memmove(target.writable, source.data, source.size);
}

int32_t HostMemory::int32_at(const std::string& buffer, uint32_t index) const {
  const Segment& s = segment(buffer);
  int32_t value = 0;
  if ((uint64_t{index} + 1) * sizeof value <= s.size) std::memcpy(&value, s.data + uint64_t{index} * sizeof value, sizeof value);
  return value;
}

}  // namespace ktune::interp

namespace ktune::interp {

std::pair<const std::byte*, size_t> HostMemory::buffer_bytes(const std::string& buffer) const {
  const Segment& s = segment(buffer);
  return {s.data, static_cast<size_t>(s.size)};
}

std::pair<std::byte*, size_t> HostMemory::writable_bytes(const std::string& buffer) {
  Segment& s = const_cast<Segment&>(segment(buffer));
  if (!s.writable) make_writable(s);
  return {s.writable, static_cast<size_t>(s.size)};
}

void HostMemory::begin_undo() {
  for (SavedPage& p : saved_) p.segment->saved.assign(p.segment->saved.size(), false);
  saved_.clear();
  undoing_ = true;
}

void HostMemory::save_pages(Segment& s, uint64_t offset, uint64_t size) {
  if (s.saved.empty()) s.saved.assign((s.size + kUndoPage - 1) / kUndoPage, false);
  for (uint64_t page = offset / kUndoPage; page <= (offset + size - 1) / kUndoPage; ++page) {
    if (s.saved[page]) continue;
    s.saved[page] = true;
    const uint64_t begin = page * kUndoPage, end = std::min(s.size, begin + kUndoPage);
    saved_.push_back({&s, page, std::vector<std::byte>(s.writable + begin, s.writable + end)});
  }
}

void HostMemory::undo() {
  for (auto p = saved_.rbegin(); p != saved_.rend(); ++p) {
    std::memcpy(p->segment->writable + p->page * kUndoPage, p->bytes.data(), p->bytes.size());
    p->segment->saved[p->page] = false;
  }
  saved_.clear();
  undoing_ = false;
}

}  // namespace ktune::interp
