#pragma once
// The daemon and its measurement worker talk over the worker's stdin/stdout in messages:
//   "KTW1" | type u32 | header length u32 | payload length u64 | header (JSON) | payload
// (integers little-endian). JSON carries the request; the payload carries bytes (a cubin,
// a buffer's contents) verbatim, NULs included.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ktune {

enum class MessageType : uint32_t {
  Hello = 1,      // daemon -> worker: open the device, answer with DeviceReport
  DeviceReport,   // worker -> daemon: DeviceInfo
  Measure,        // daemon -> worker: a measurement request; payload: the cubin (if any)
  Need,           // worker -> daemon: the content keys of the request it does not hold
  Upload,         // daemon -> worker: one needed content; payload: its bytes
  Progress,       // worker -> daemon: a run finished; the worker is alive
  Result,         // worker -> daemon: the answer to Measure or CopyBandwidth
  Error,          // worker -> daemon: the request failed; header {"message"}
  CopyBandwidth,  // daemon -> worker: time a device-to-device copy
};

struct WorkerMessage {
  MessageType type = MessageType::Error;
  nlohmann::json header;
  std::string payload;
};

class WorkerError : public std::runtime_error {
 public:
  enum class Kind { Timeout, Closed, Protocol };
  WorkerError(Kind kind, const std::string& message) : std::runtime_error(message), kind(kind) {}
  Kind kind;
};

// One whole message as bytes, and back; decode_message throws WorkerError(Protocol) when
// `bytes` is not exactly one well-formed message, saying what is missing.
std::string encode_message(MessageType type, const nlohmann::json& header, std::string_view payload = {});
WorkerMessage decode_message(std::string_view bytes);

// Messages over a pair of file descriptors (not owned; pipes or sockets). A timeout bounds
// how long no byte may move, so a large upload to a live worker never times out while a
// silent one does: timeout_s < 0 waits forever. Throws WorkerError: Timeout, Closed (the
// other side went away, also in the middle of a message) or Protocol (garbage).
class MessageStream {
 public:
  MessageStream(int read_fd, int write_fd);
  void send(MessageType type, const nlohmann::json& header, std::string_view payload = {}, double timeout_s = -1);
  WorkerMessage receive(double timeout_s = -1);

 private:
  void write_all(const char* data, size_t size, double timeout_s);
  // Reads until `size` bytes or the end of the stream; returns how many arrived.
  size_t read_fully(char* data, size_t size, double timeout_s, const char* what);

  int read_fd_, write_fd_;
  bool write_is_socket_;  // sockets can refuse SIGPIPE per call; a pipe to a dead worker cannot
};

}  // namespace ktune
