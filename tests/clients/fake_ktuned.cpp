#include "fake_ktuned.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>

namespace ktune::testing {
namespace {

using nlohmann::json;

void answer(httplib::Response& res, int status, const json& body) {
  res.status = status;
  res.set_content(body.dump(), "application/json");
}

void error(httplib::Response& res, int status, const std::string& message) {
  answer(res, status, json{{"error", message}});
}

}  // namespace

FakeKtuned::FakeKtuned() {
  install_routes();
  port_ = server_.bind_to_any_port("127.0.0.1");
  thread_ = std::thread([this] { server_.listen_after_bind(); });
  while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

FakeKtuned::~FakeKtuned() {
  server_.stop();
  thread_.join();
}

FakeKtuned::Seen FakeKtuned::seen() {
  std::lock_guard lock(mutex_);
  return seen_;
}

json FakeKtuned::tune_answer(const std::string& signature, const std::string& match) {
  return {{"kernel", "spmv"},
          {"dtype", "f32"},
          {"signature", signature},
          {"family", "spmv"},
          {"schedule", "subwarp"},
          {"parameters", {{"schedule", "subwarp"}, {"lanes", 8}}},
          {"predicted_us", 12.5},
          {"measured_us", nullptr},
          {"source", "model"},
          {"match", match},
          {"distance", 0.0},
          {"neighbour", nullptr}};
}

std::string FakeKtuned::signature_of_upload(const std::string& upload_id) {
  return "sha256-of-" + upload_id;
}

std::vector<double> FakeKtuned::features_of_upload() { return {1.5, -2.25, 1e-3}; }

json FakeKtuned::job_json(const Job& job) const {
  json best = nullptr;
  if (job.state == "running" || job.state == "done") best = tune_answer(job.signature, "model");
  return {{"id", job.id},
          {"state", job.state},
          {"progress", {{"done", job.done}, {"planned", job.planned}}},
          {"best", best},
          {"error", job.error.empty() ? json(nullptr) : json(job.error)},
          {"request", {{"kernel", job.kernel}}}};
}

void FakeKtuned::advance(Job& job) {
  if (job.state == "queued") {
    job.state = "running";
  } else if (job.state == "running" && job.kernel == "fails") {
    job.state = "failed";
    job.error = "NVRTC could not compile any candidate";
  } else if (job.state == "running") {
    job.done = std::min(job.done + 2, job.planned);
    if (job.done == job.planned) {
      job.state = "done";
      stored_[job.signature] = tune_answer(job.signature, "exact");
    }
  }
}

void FakeKtuned::install_routes() {
  server_.Post("/v1/matrices", [this](const httplib::Request& req, httplib::Response& res) {
    std::lock_guard lock(mutex_);
    seen_.uploads.push_back(req.body);
    if (req.body.empty()) return error(res, 400, "the body is empty: send a Matrix Market file");
    const auto [it, is_new] =
        upload_ids_.emplace(req.body, "m" + std::to_string(upload_ids_.size() + 1));
    answer(res, is_new ? 201 : 200,
           {{"id", it->second},
            {"signature", {{"exact", signature_of_upload(it->second)}, {"features", features_of_upload()}}},
            {"rows", 3},
            {"cols", 3},
            {"nnz", 4}});
  });

  server_.Post("/v1/tune", [this](const httplib::Request& req, httplib::Response& res) {
    std::lock_guard lock(mutex_);
    const json request = json::parse(req.body, nullptr, false);
    if (!request.is_object()) return error(res, 400, "the body is not a JSON object");
    seen_.last_tune_request = request;
    const std::string kernel = request.value("kernel", "");
    if (kernel == "crashes") return error(res, 500, "internal error: the job queue is gone");
    if (kernel != "spmv" && kernel != "fails") {
      return error(res, 400, "unknown kernel '" + kernel + "'; GET /v1/kernels lists them");
    }
    const json workload = request.value("workload", json::object());
    std::string signature;
    if (workload.contains("upload")) {
      const std::string id = workload["upload"];
      bool known = false;
      for (const auto& [body, upload_id] : upload_ids_) known = known || upload_id == id;
      if (!known) return error(res, 404, "no upload '" + id + "'");
      signature = signature_of_upload(id);
    } else {
      signature = "sha256-of-" + workload.dump();
    }
    if (stored_.count(signature)) return answer(res, 200, stored_[signature]);
    Job job;
    job.id = "job-" + std::to_string(jobs_.size() + 1);
    job.kernel = kernel;
    job.signature = signature;
    job.planned = request.value("budget", json::object()).value("measurements", 4L);
    jobs_[job.id] = job;
    answer(res, 202, {{"job", job.id}, {"state", job.state}});
  });

  server_.Get(R"(/v1/jobs/([^/]+))", [this](const httplib::Request& req, httplib::Response& res) {
    std::lock_guard lock(mutex_);
    ++seen_.job_polls;
    const auto it = jobs_.find(req.matches[1]);
    if (it == jobs_.end()) return error(res, 404, "no job '" + std::string(req.matches[1]) + "'");
    answer(res, 200, job_json(it->second));
    advance(it->second);
  });

  server_.Delete(R"(/v1/jobs/([^/]+))", [this](const httplib::Request& req, httplib::Response& res) {
    std::lock_guard lock(mutex_);
    const auto it = jobs_.find(req.matches[1]);
    if (it == jobs_.end()) return error(res, 404, "no job '" + std::string(req.matches[1]) + "'");
    Job& job = it->second;
    if (job.state != "queued" && job.state != "running") {
      return error(res, 409, "job " + job.id + " already finished (" + job.state + ")");
    }
    job.state = "cancelled";
    answer(res, 200, job_json(job));
  });

  server_.Get("/v1/configs", [this](const httplib::Request& req, httplib::Response& res) {
    std::lock_guard lock(mutex_);
    seen_.last_lookup_query = req.params;
    for (const char* key : {"kernel", "signature", "dtype"}) {
      if (!req.has_param(key)) return error(res, 400, std::string("missing query parameter ") + key);
    }
    const auto it = stored_.find(req.get_param_value("signature"));
    if (it == stored_.end()) return error(res, 404, "no stored configuration for this signature");
    answer(res, 200, it->second);
  });

  server_.Get("/v1/report", [](const httplib::Request& req, httplib::Response& res) {
    if (req.get_param_value("format") == "text") {
      res.set_content("kernel  dtype  predicted_us\nspmv    f32    12.5\n", "text/plain");
    } else {
      answer(res, 200, {{"results", json::array({tune_answer("s1", "exact")})}});
    }
  });

  server_.Get("/v1/kernels", [](const httplib::Request&, httplib::Response& res) {
    answer(res, 200,
           {{"kernels",
             {{{"name", "spmv"}, {"description", "sparse matrix times dense vector"}},
              {{"name", "spmm"}, {"description", "sparse matrix times dense matrix"}}}}});
  });

  server_.Get("/healthz", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("ok", "text/plain");
  });
}

int unused_loopback_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  close(fd);
  return ntohs(address.sin_port);
}

}  // namespace ktune::testing
