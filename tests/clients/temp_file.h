#pragma once
// A file in the temp dir that lives as long as the test needs it.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace ktune::testing {

class TempFile {
 public:
  explicit TempFile(const std::string& contents)
      : path_(std::filesystem::temp_directory_path() /
              ("ktune_clients_test_" + std::to_string(getpid()) + "_" + std::to_string(next_++) + ".mtx")) {
    std::ofstream(path_, std::ios::binary) << contents;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  std::string path() const { return path_.string(); }

 private:
  static inline int next_ = 0;
  std::filesystem::path path_;
};

}  // namespace ktune::testing
