#pragma once
// The device memory of an interpreted launch, on the host: every buffer of a LaunchPlan at a
// distinct, 4 KiB-aligned "device" address (so that 32-byte sector numbers are realistic and
// buffers never share a sector), with a guard gap between buffers so that an overrun is an
// error rather than a read of the neighbour. Inputs are read in place from their HostBytes
// (no copy of a large matrix) and copied only if a kernel writes them; outputs and scratch
// are allocated here. A twin (kernels/launch_twin.h) reads and writes the same buffers by name.
//
// Writes can be undone: between begin_undo() and undo(), the first write to each 4 KiB page of a
// buffer saves that page, and undo() puts every saved page back (the emulator traces sampled
// blocks of a launch, then lets the launch's twin run it whole from the state before them).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/kernel_family.h"
#include "kernels/launch_twin.h"

namespace ktune::interp {

// Generic addresses of the shared-memory window (cvta.shared adds this); global buffers lie
// far below it.
inline constexpr uint64_t kSharedWindow = uint64_t{1} << 48;
inline constexpr uint64_t kSharedWindowSize = uint64_t{1} << 32;

class HostMemory : public PlanMemory {
 public:
  // What output and scratch buffers hold before the launch. Poison (all bytes 0xFF, a NaN in
  // f32 and f64) makes any element a kernel forgets to write fail a comparison, as the GPU
  // measurement does; Zero is cheaper for large sampled runs.
  enum class Fill { Zero, Poison };

  explicit HostMemory(const LaunchPlan& plan, Fill fill = Fill::Zero);
  HostMemory(const HostMemory&) = delete;
  HostMemory& operator=(const HostMemory&) = delete;
  HostMemory(HostMemory&&) = default;
  HostMemory& operator=(HostMemory&&) = default;

  // Throws NotFoundError for an unknown buffer.
  uint64_t address_of(const std::string& buffer) const;
  std::string_view bytes_of(const std::string& buffer) const;
  // A plan program's operations (kernels/launch_plan.h): every 32-bit word of `buffer` set
  // to `word`; `to` overwritten with `from` (the same size); the int32 at `index` (0 past the end).
  void fill(const std::string& buffer, uint32_t word);
  void copy(const std::string& from, const std::string& to);
  int32_t int32_at(const std::string& buffer, uint32_t index) const;
  std::pair<const std::byte*, size_t> buffer_bytes(const std::string& buffer) const override;
  std::pair<std::byte*, size_t> writable_bytes(const std::string& buffer) override;

  // See the header's comment. begin_undo() while undoing already starts over from now.
  void begin_undo();
  void undo();

  // The host bytes behind [address, address + size), or nullptr when that range is not
  // inside one buffer. Hot path: remembers the last buffer hit.
  const std::byte* read(uint64_t address, uint32_t size) {
    Segment* s = find(address, size);
    return s ? s->data + (address - s->base) : nullptr;
  }
  std::byte* write(uint64_t address, uint32_t size) {
    Segment* s = find(address, size);
    if (!s) return nullptr;
    if (!s->writable) make_writable(*s);
    if (undoing_) save_pages(*s, address - s->base, size);
    return s->writable + (address - s->base);
  }

 private:
  struct Segment {
    std::string name;
    uint64_t base = 0;
    uint64_t size = 0;
    const std::byte* data = nullptr;  // what reads see
    std::byte* writable = nullptr;    // == data once owned
    HostBytes input;                  // keeps an input's bytes alive
    std::shared_ptr<std::byte> owned;
    std::vector<bool> saved;  // pages saved since begin_undo()
  };
  struct SavedPage {
    Segment* segment;
    uint64_t page;
    std::vector<std::byte> bytes;
  };

  Segment* find(uint64_t address, uint32_t size) {
    Segment* s = &segments_[last_];
    if (address >= s->base && address + size <= s->base + s->size) return s;
    return find_slow(address, size);
  }
  Segment* find_slow(uint64_t address, uint32_t size);
  void make_writable(Segment& s);
  const Segment& segment(const std::string& name) const;
  void save_pages(Segment& s, uint64_t offset, uint64_t size);

  std::vector<Segment> segments_;
  size_t last_ = 0;
  bool undoing_ = false;
  std::vector<SavedPage> saved_;
};

}  // namespace ktune::interp
