// ktuned's settings: defaults, a JSON config file, flags over the file, and refusals.
#include "server/server_config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "workload/input_error.h"

namespace ktune {
namespace {

TEST(ServerConfig, DefaultsBindLoopback) {
  const ServerConfig c = parse_server_config({});
  EXPECT_EQ(c.bind, "127.0.0.1");
  EXPECT_EQ(c.port, 8077);
  EXPECT_EQ(c.db_path, "ktune.db");
}

TEST(ServerConfig, FlagsOverrideTheConfigFile) {
  const auto file = std::filesystem::temp_directory_path() / "ktuned-config-test.json";
  std::ofstream(file) << R"({"port": 9000, "data_dir": "matrices", "queue": 3, "log_level": "debug"})";
  const ServerConfig c = parse_server_config({"--port", "9100", "--config", file.string(), "--db", "x.db"});
  EXPECT_EQ(c.port, 9100);
  EXPECT_EQ(c.data_dir, "matrices");
  EXPECT_EQ(c.queue_capacity, 3);
  EXPECT_EQ(c.log_level, "debug");
  EXPECT_EQ(c.db_path, "x.db");
  std::filesystem::remove(file);
}

TEST(ServerConfig, RefusesWhatItDoesNotKnow) {
  EXPECT_THROW(parse_server_config({"--colour", "red"}), InputError);
  EXPECT_THROW(parse_server_config({"--port"}), InputError);
  EXPECT_THROW(parse_server_config({"--port", "70000"}), InputError);
  EXPECT_THROW(parse_server_config({"--port", "12ab"}), InputError);
  EXPECT_THROW(parse_server_config({"stray"}), InputError);
  EXPECT_THROW(parse_server_config({"--config", "/nonexistent/ktuned.json"}), InputError);
  const auto bad = std::filesystem::temp_directory_path() / "ktuned-bad-config.json";
  std::ofstream(bad) << "{port: }";
  EXPECT_THROW(parse_server_config({"--config", bad.string()}), InputError);
  std::filesystem::remove(bad);
}

}  // namespace
}  // namespace ktune
