#pragma once
// Stand-in worker programs (shell scripts) for testing process handling without a GPU.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace ktune {

// Writes an executable script running `body` into a fresh temporary directory; the
// directory goes with the object.
class FakeWorker {
 public:
  explicit FakeWorker(const std::string& body) {
    std::string pattern = (std::filesystem::temp_directory_path() / "ktune-fake-worker-XXXXXX").string();
    dir_ = mkdtemp(pattern.data()) ? pattern : "";
    path_ = dir_ + "/worker";
    std::ofstream(path_) << "#!/bin/sh\n" << body << "\n";
    chmod(path_.c_str(), 0755);
  }
  ~FakeWorker() {
    unlink(path_.c_str());
    rmdir(dir_.c_str());
  }
  const std::string& path() const { return path_; }

 private:
  std::string dir_, path_;
};

}  // namespace ktune
