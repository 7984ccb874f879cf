#include "gpu/worker_protocol.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <thread>

namespace ktune {
namespace {

std::string every_byte_value(size_t repeats) {
  std::string bytes;
  for (size_t r = 0; r < repeats; ++r) {
    for (int b = 0; b < 256; ++b) bytes.push_back(static_cast<char>(b));
  }
  return bytes;
}

WorkerError::Kind error_kind(const std::function<void()>& f, std::string* message = nullptr) {
  try {
    f();
  } catch (const WorkerError& e) {
    if (message) *message = e.what();
    return e.kind;
  }
  ADD_FAILURE() << "no WorkerError";
  return WorkerError::Kind::Protocol;
}

// Both ends of a socket pair, closed at the end of the test.
struct SocketPair {
  SocketPair() { EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fd), 0); }
  ~SocketPair() {
    close_end(0);
    close_end(1);
  }
  void close_end(int i) {
    if (fd[i] >= 0) close(fd[i]);
    fd[i] = -1;
  }
  int fd[2] = {-1, -1};
};

TEST(WorkerProtocol, EncodeDecodeRoundTripKeepsBinaryPayload) {
  const std::string payload = every_byte_value(3);  // NULs included
  const nlohmann::json header = {{"key", "abc"}, {"sizes", {1, 2, 3}}, {"text", std::string("a\0b", 3)}};
  const std::string bytes = encode_message(MessageType::Upload, header, payload);
  EXPECT_EQ(bytes.substr(0, 4), "KTW1");
  const WorkerMessage m = decode_message(bytes);
  EXPECT_EQ(m.type, MessageType::Upload);
  EXPECT_EQ(m.header, header);
  EXPECT_EQ(m.payload, payload);
}

TEST(WorkerProtocol, InvalidUtf8InAHeaderStillTravels) {
  const WorkerMessage m = decode_message(encode_message(MessageType::Error, {{"message", "bad \xff byte"}}));
  const std::string message = m.header.at("message");
  EXPECT_EQ(message.rfind("bad ", 0), 0u);
  EXPECT_NE(message.find(" byte"), std::string::npos);
}

TEST(WorkerProtocol, FrameLayoutIsLittleEndian) {
  const std::string bytes = encode_message(MessageType::Need, {{"k", 1}}, std::string(300, 'x'));
  const std::string text = nlohmann::json({{"k", 1}}).dump();
  ASSERT_EQ(bytes.size(), 20 + text.size() + 300);
  EXPECT_EQ(static_cast<unsigned char>(bytes[4]), static_cast<unsigned>(MessageType::Need));
  EXPECT_EQ(static_cast<unsigned char>(bytes[8]), text.size());
  EXPECT_EQ(static_cast<unsigned char>(bytes[12]), 300 % 256);
  EXPECT_EQ(static_cast<unsigned char>(bytes[13]), 300 / 256);
  EXPECT_EQ(bytes.substr(20, text.size()), text);
}

TEST(WorkerProtocol, TruncatedBytesSayWhatIsMissing) {
  const std::string bytes = encode_message(MessageType::Result, {{"median_us", 1.5}}, "payload");
  std::string message;
  EXPECT_EQ(error_kind([&] { decode_message(bytes.substr(0, 10)); }, &message), WorkerError::Kind::Protocol);
  EXPECT_NE(message.find("10 of the 20 frame bytes"), std::string::npos) << message;
  EXPECT_EQ(error_kind([&] { decode_message(bytes.substr(0, bytes.size() - 3)); }, &message),
            WorkerError::Kind::Protocol);
  EXPECT_NE(message.find("truncated"), std::string::npos) << message;
  EXPECT_NE(message.find("7 payload bytes"), std::string::npos) << message;
  EXPECT_EQ(error_kind([&] { decode_message(bytes + "!"); }, &message), WorkerError::Kind::Protocol);
  EXPECT_NE(message.find("extra"), std::string::npos) << message;
}

TEST(WorkerProtocol, GarbageIsRejected) {
  std::string message;
  EXPECT_EQ(error_kind([&] { decode_message(std::string(40, 'z')); }, &message), WorkerError::Kind::Protocol);
  EXPECT_NE(message.find("magic"), std::string::npos) << message;
  std::string bad_type = encode_message(MessageType::Hello, {});
  bad_type[4] = 99;
  EXPECT_EQ(error_kind([&] { decode_message(bad_type); }, &message), WorkerError::Kind::Protocol);
  EXPECT_NE(message.find("type 99"), std::string::npos) << message;
  std::string bad_json = encode_message(MessageType::Hello, {{"a", 1}});
  bad_json[20] = '?';
  EXPECT_EQ(error_kind([&] { decode_message(bad_json); }), WorkerError::Kind::Protocol);
}

TEST(WorkerProtocol, StreamRoundTripOverASocket) {
  SocketPair s;
  MessageStream a(s.fd[0], s.fd[0]), b(s.fd[1], s.fd[1]);
  // Larger than the socket buffer: the writer must block until the reader drains it.
  const std::string big = every_byte_value(40000);
  std::thread writer([&] {
    a.send(MessageType::Upload, {{"key", "k1"}}, big, 5.0);
    a.send(MessageType::Progress, nlohmann::json::object());
  });
  const WorkerMessage first = b.receive(5.0);
  const WorkerMessage second = b.receive(5.0);
  writer.join();
  EXPECT_EQ(first.type, MessageType::Upload);
  EXPECT_EQ(first.header.at("key"), "k1");
  EXPECT_EQ(first.payload, big);
  EXPECT_EQ(second.type, MessageType::Progress);
  EXPECT_TRUE(second.payload.empty());
}

TEST(WorkerProtocol, StreamEndingInsideAMessageIsClosedWithCounts) {
  SocketPair s;
  const std::string bytes = encode_message(MessageType::Upload, {{"key", "k"}}, std::string(1000, '\0'));
  ASSERT_EQ(write(s.fd[0], bytes.data(), bytes.size() - 400), static_cast<ssize_t>(bytes.size() - 400));
  s.close_end(0);
  std::string message;
  MessageStream reader(s.fd[1], s.fd[1]);
  EXPECT_EQ(error_kind([&] { reader.receive(5.0); }, &message), WorkerError::Kind::Closed);
  EXPECT_NE(message.find("after 600 of the 1000 bytes of the message payload"), std::string::npos) << message;
}

TEST(WorkerProtocol, SilentPeerTimesOut) {
  SocketPair s;
  MessageStream reader(s.fd[1], s.fd[1]);
  const auto start = std::chrono::steady_clock::now();
  std::string message;
  EXPECT_EQ(error_kind([&] { reader.receive(0.2); }, &message), WorkerError::Kind::Timeout);
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(waited, 0.19);
  EXPECT_LT(waited, 3.0);
  EXPECT_NE(message.find("0.2 s"), std::string::npos) << message;
}

TEST(WorkerProtocol, PeerThatStopsReadingTimesOutTheWriter) {
  SocketPair s;
  MessageStream writer(s.fd[0], s.fd[0]);
  EXPECT_EQ(error_kind([&] { writer.send(MessageType::Upload, {}, std::string(64 << 20, 'x'), 0.2); }),
            WorkerError::Kind::Timeout);
}

TEST(WorkerProtocol, WritingToAClosedPeerIsClosedNotSigpipe) {
  SocketPair s;
  s.close_end(1);
  MessageStream writer(s.fd[0], s.fd[0]);
  EXPECT_EQ(error_kind([&] { writer.send(MessageType::Hello, {}, "x", 1.0); }), WorkerError::Kind::Closed);
}

TEST(WorkerProtocol, PipesWorkToo) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  MessageStream writer(-1, p[1]), reader(p[0], -1);
  writer.send(MessageType::Result, {{"gbs", 2.5}}, std::string("\0\1\2", 3), 1.0);
  const WorkerMessage m = reader.receive(1.0);
  EXPECT_EQ(m.header.at("gbs"), 2.5);
  EXPECT_EQ(m.payload, std::string("\0\1\2", 3));
  close(p[0]);
  close(p[1]);
}

}  // namespace
}  // namespace ktune
