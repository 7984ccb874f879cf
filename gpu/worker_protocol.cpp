#include "gpu/worker_protocol.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "workload/cancellation.h"

namespace ktune {
namespace {

constexpr char kMagic[4] = {'K', 'T', 'W', '1'};
constexpr size_t kFrameBytes = 20;
constexpr uint32_t kMaxHeaderBytes = 64u << 20;
constexpr uint64_t kMaxPayloadBytes = uint64_t{1} << 40;
constexpr size_t kReadChunk = size_t{16} << 20;  // the payload grows as bytes arrive, not as announced

struct Frame {
  MessageType type;
  uint32_t header_bytes;
  uint64_t payload_bytes;
};

void put_le(std::string& out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

uint64_t get_le(const char* p, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value |= uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
  return value;
}

WorkerError protocol_error(const std::string& message) { return WorkerError(WorkerError::Kind::Protocol, message); }

std::string encode_frame(MessageType type, size_t header_bytes, size_t payload_bytes) {
  if (header_bytes > kMaxHeaderBytes) throw protocol_error("message header too large: " + std::to_string(header_bytes));
  if (payload_bytes > kMaxPayloadBytes) throw protocol_error("message payload too large: " + std::to_string(payload_bytes));
  std::string frame(kMagic, sizeof kMagic);
  put_le(frame, static_cast<uint32_t>(type), 4);
  put_le(frame, header_bytes, 4);
  put_le(frame, payload_bytes, 8);
  return frame;
}

Frame decode_frame(const char* p) {
  if (std::memcmp(p, kMagic, sizeof kMagic) != 0) {
    throw protocol_error("not a worker message: bad magic (did something else write to the worker's stdout?)");
  }
  const uint64_t type = get_le(p + 4, 4);
  if (type < static_cast<uint32_t>(MessageType::Hello) || type > static_cast<uint32_t>(MessageType::CopyBandwidth)) {
    throw protocol_error("unknown worker message type " + std::to_string(type));
  }
  Frame f{static_cast<MessageType>(type), static_cast<uint32_t>(get_le(p + 8, 4)), get_le(p + 12, 8)};
  if (f.header_bytes > kMaxHeaderBytes) throw protocol_error("message header too large: " + std::to_string(f.header_bytes));
  if (f.payload_bytes > kMaxPayloadBytes) {
    throw protocol_error("message payload too large: " + std::to_string(f.payload_bytes));
  }
  return f;
}

// Messages quote error text from drivers and kernels; invalid UTF-8 there must not stop
// the message from being sent.
std::string header_text(const nlohmann::json& header) {
  return header.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

nlohmann::json parse_header(std::string_view text) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw protocol_error(std::string("the message header is not JSON: ") + e.what());
  }
}

// -1 waits forever; poll() takes whole milliseconds.
int poll_millis(double timeout_s) {
  if (timeout_s < 0) return -1;
  return static_cast<int>(std::min(std::ceil(timeout_s * 1000), static_cast<double>(INT_MAX)));
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", seconds);
  return text;
}

// Polls in slices so that a cancelled job (workload/cancellation.h) stops waiting within one.
void wait_for(int fd, short events, double timeout_s, const char* what) {
  constexpr double kSliceS = 0.2;
  pollfd p{fd, events, 0};
  const auto start = std::chrono::steady_clock::now();
  auto waited = [&start] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  for (;;) {
    throw_if_cancelled();
    const double slice = timeout_s < 0 ? kSliceS : std::clamp(timeout_s - waited(), 0.0, kSliceS);
    const int ready = poll(&p, 1, poll_millis(slice));
    if (ready > 0) return;
    if (ready < 0 && errno != EINTR)
      throw WorkerError(WorkerError::Kind::Closed, std::string("poll failed: ") + std::strerror(errno));
    if (timeout_s >= 0 && waited() >= timeout_s)
      throw WorkerError(WorkerError::Kind::Timeout, "no progress for " + seconds_text(timeout_s) + " waiting for " + what);
  }
}

}  // namespace

std::string encode_message(MessageType type, const nlohmann::json& header, std::string_view payload) {
  const std::string text = header_text(header);
  std::string bytes = encode_frame(type, text.size(), payload.size());
  bytes += text;
  bytes.append(payload.data(), payload.size());
  return bytes;
}

WorkerMessage decode_message(std::string_view bytes) {
  if (bytes.size() < kFrameBytes) {
    throw protocol_error("message truncated: " + std::to_string(bytes.size()) + " of the " +
                         std::to_string(kFrameBytes) + " frame bytes");
  }
  const Frame f = decode_frame(bytes.data());
  const uint64_t expected = kFrameBytes + uint64_t{f.header_bytes} + f.payload_bytes;
  if (bytes.size() != expected) {
    throw protocol_error("message " + std::string(bytes.size() < expected ? "truncated" : "followed by extra bytes") +
                         ": the frame announces " + std::to_string(f.header_bytes) + " header and " +
                         std::to_string(f.payload_bytes) + " payload bytes, " +
                         std::to_string(bytes.size() - kFrameBytes) + " follow");
  }
  WorkerMessage m;
  m.type = f.type;
  m.header = parse_header(bytes.substr(kFrameBytes, f.header_bytes));
  m.payload = std::string(bytes.substr(kFrameBytes + f.header_bytes));
  return m;
}

MessageStream::MessageStream(int read_fd, int write_fd) : read_fd_(read_fd), write_fd_(write_fd) {
  struct stat st {};
  write_is_socket_ = fstat(write_fd, &st) == 0 && S_ISSOCK(st.st_mode);
}

void MessageStream::send(MessageType type, const nlohmann::json& header, std::string_view payload, double timeout_s) {
  const std::string text = header_text(header);
  const std::string frame = encode_frame(type, text.size(), payload.size());
  write_all(frame.data(), frame.size(), timeout_s);
  write_all(text.data(), text.size(), timeout_s);
  write_all(payload.data(), payload.size(), timeout_s);
}

WorkerMessage MessageStream::receive(double timeout_s) {
  auto read_part = [&](char* data, size_t size, const char* what, uint64_t before, uint64_t total) {
    const size_t got = read_fully(data, size, timeout_s, what);
    if (got < size) {
      throw WorkerError(WorkerError::Kind::Closed, "the stream ended after " + std::to_string(before + got) +
                                                       " of the " + std::to_string(total) + " bytes of " + what);
    }
  };
  char frame_bytes[kFrameBytes];
  read_part(frame_bytes, kFrameBytes, "the message frame", 0, kFrameBytes);
  const Frame f = decode_frame(frame_bytes);
  std::string text(f.header_bytes, '\0');
  read_part(text.data(), text.size(), "the message header", 0, text.size());
  WorkerMessage m;
  m.type = f.type;
  m.header = parse_header(text);
  while (m.payload.size() < f.payload_bytes) {
    const size_t have = m.payload.size();
    const size_t chunk = static_cast<size_t>(std::min<uint64_t>(kReadChunk, f.payload_bytes - have));
    m.payload.resize(have + chunk);
    read_part(m.payload.data() + have, chunk, "the message payload", have, f.payload_bytes);
  }
  return m;
}

void MessageStream::write_all(const char* data, size_t size, double timeout_s) {
  // With a timeout every write must return at once: a socket write is made non-blocking, a
  // pipe write is kept to PIPE_BUF, which poll's POLLOUT guarantees room for.
  while (size > 0) {
    ssize_t written;
    if (timeout_s >= 0) wait_for(write_fd_, POLLOUT, timeout_s, "room to send a message");
    if (write_is_socket_) {
      written = ::send(write_fd_, data, size, MSG_NOSIGNAL | (timeout_s >= 0 ? MSG_DONTWAIT : 0));
    } else {
      written = ::write(write_fd_, data, timeout_s >= 0 ? std::min<size_t>(size, PIPE_BUF) : size);
    }
    if (written < 0) {
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
      throw WorkerError(WorkerError::Kind::Closed, std::string("the other side closed the stream: ") + std::strerror(errno));
    }
    data += written;
    size -= static_cast<size_t>(written);
  }
}

size_t MessageStream::read_fully(char* data, size_t size, double timeout_s, const char* what) {
  size_t done = 0;
  while (done < size) {
    wait_for(read_fd_, POLLIN, timeout_s, what);
    const ssize_t got = ::read(read_fd_, data + done, size - done);
    if (got < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      throw WorkerError(WorkerError::Kind::Closed, std::string("reading failed: ") + std::strerror(errno));
    }
    if (got == 0) break;
    done += static_cast<size_t>(got);
  }
  return done;
}

}  // namespace ktune
