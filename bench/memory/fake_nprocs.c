// Makes a process see NPROCS cores (default 16): std::thread::hardware_concurrency() asks glibc's
// get_nprocs(), and ktuned sizes its pools and side-by-side estimates by it. A tune's peak memory
// grows with those threads, so this host's 2 cores hide what the GPU machine's 16 show.
//   cc -shared -fPIC -o /tmp/fake_nprocs.so bench/memory/fake_nprocs.c
//   NPROCS=16 LD_PRELOAD=/tmp/fake_nprocs.so bench/memory/tune_timeline.sh build-release/bin cc ...
#include <stdlib.h>

static int fake_count(void) {
  const char* text = getenv("NPROCS");
  const int n = text ? atoi(text) : 16;
  return n > 0 ? n : 16;
}

int get_nprocs(void) { return fake_count(); }
int get_nprocs_conf(void) { return fake_count(); }
