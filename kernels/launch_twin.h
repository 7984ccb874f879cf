#pragma once
// A launch's native twin: what running every block of one launch does to the plan's buffers,
// computed by plain host code instead of interpreting the kernel's PTX (a hundred times
// faster). The emulator follows a looping program on a graph of millions of edges by tracing a
// few sampled blocks of each launch and letting the twin carry the state to the next launch
// (model/saake/candidate_emulation.h); without twins it interprets every block, which a graph
// past a few hundred thousand edges cannot afford. A family's twins live beside its kernels
// (kernels/<family>/*_twins.cpp) and the conformance suite runs its plans through them
// against its reference.
//
// A twin may run the launch's work in any order the kernel's own threads might: a queue's
// entries may come out permuted and an asynchronous relaxation may take another valid path,
// but every buffer a later launch or the answer reads must hold what some run of the kernel
// would have left.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "kernels/launch_plan.h"
#include "workload/input_error.h"

namespace ktune {

// A plan's buffers as a host model holds them.
class PlanMemory {
 public:
  virtual ~PlanMemory() = default;
  // The bytes of `buffer`, to read, or to write (an input is then copied first). Throw
  // NotFoundError for a buffer the plan lacks.
  virtual std::pair<const std::byte*, size_t> buffer_bytes(const std::string& buffer) const = 0;
  virtual std::pair<std::byte*, size_t> writable_bytes(const std::string& buffer) = 0;

  // What a twin saw that a launch's sampled blocks cannot show, as it happens across blocks:
  // compare-and-swaps that queued behind another on one address (kernels/cc/cc_contention.h).
  // The emulator charges them to the launch and takes them back.
  void queue_swaps(int64_t swaps) { queued_swaps_ += swaps; }
  int64_t take_queued_swaps() { return std::exchange(queued_swaps_, 0); }

 private:
  int64_t queued_swaps_ = 0;
};

// A buffer of PlanMemory as an array of T (const T: read only, so that a graph's inputs are read
// in place), every access checked: a twin reads indices that earlier launches wrote, and a wrong
// one must be an error, not a stray write.
template <typename T>
class HostArray {
  static constexpr bool kReadOnly = std::is_const_v<T>;
  using Value = std::remove_const_t<T>;
  using Byte = std::conditional_t<kReadOnly, const std::byte, std::byte>;

 public:
  HostArray(std::conditional_t<kReadOnly, const PlanMemory&, PlanMemory&> memory, const std::string& buffer)
      : name_(buffer) {
    std::pair<Byte*, size_t> bytes;
    if constexpr (kReadOnly)
      bytes = memory.buffer_bytes(buffer);
    else
      bytes = memory.writable_bytes(buffer);
    data_ = bytes.first;
    size_ = bytes.second / sizeof(Value);
  }
  size_t size() const { return size_; }
  Value operator[](int64_t i) const {
    Value v;
    std::memcpy(&v, at(i), sizeof v);
    return v;
  }
  void set(int64_t i, Value v) {
    static_assert(!kReadOnly, "a read-only array");
    std::memcpy(at(i), &v, sizeof v);
  }

 private:
  Byte* at(int64_t i) const {
    if (i < 0 || static_cast<size_t>(i) >= size_)
      throw InputError("a launch's twin read element " + std::to_string(i) + " of " + name_ + ", which holds " +
                       std::to_string(size_));
    return data_ + static_cast<size_t>(i) * sizeof(Value);
  }
  std::string name_;
  Byte* data_ = nullptr;
  size_t size_ = 0;
};

// The scalar argument `index` of `step`, as T (a launch's scalars are set by the family's plan).
template <typename T>
T scalar_arg(const LaunchStep& step, size_t index) {
  return std::visit([](auto v) { return static_cast<T>(v); }, step.args.at(index).scalar);
}

}  // namespace ktune
