#include "clients/cli.h"

#include <thread>

#include <nlohmann/json.hpp>

#include "clients/exit_codes.h"
#include "clients/ktune_client.h"
#include "clients/progress_bar.h"
#include "clients/summary.h"
#include "clients/upload_answer.h"

namespace ktune {
namespace {

using nlohmann::json;

constexpr int kProgressBarWidth = 30;
// A 2xx answer that lacks what docs/api.md promises is the server's fault (exit 5).
constexpr int kMalformedAnswer = 200;

void print(CliIo& io, const CliArgs& args, const json& answer, const std::string& summary) {
  if (args.json) io.out << answer.dump(2) << "\n";
  else io.out << summary;
}

// Polls the job until it finishes, showing progress on stderr; returns its last state.
json follow_job(KtuneClient& client, const std::string& id, CliIo& io) {
  std::string last_state;
  bool bar_drawn = false;
  try {
    for (;;) {
      json job = client.job(id);
      const JobProgress progress = job_progress(job);
      if (io.err_is_tty) {
        io.err << "\r" << render_progress_bar(progress, kProgressBarWidth) << "\x1b[K" << std::flush;
        bar_drawn = true;
      } else if (progress.state != last_state) {
        io.err << render_progress_line(progress) << "\n";
      }
      last_state = progress.state;
      if (is_finished_state(progress.state)) {
        if (bar_drawn) io.err << "\n";
        return job;
      }
      std::this_thread::sleep_for(io.poll_interval);
    }
  } catch (...) {
    if (bar_drawn) io.err << "\n";
    throw;
  }
}

bool job_failed(const json& job) {
  const std::string state = job_progress(job).state;
  return state == "failed" || state == "cancelled";
}

void report_job_failure(const json& job, CliIo& io) {
  io.err << "ktune: job " << job.value("id", std::string("?")) << " " << job_progress(job).state;
  if (job.contains("error") && job["error"].is_string()) io.err << ": " << job["error"].get<std::string>();
  io.err << "\n";
}

int run_upload(KtuneClient& client, const CliArgs& args, CliIo& io) {
  const json upload = client.upload_matrix(args.file);
  print(io, args, upload, summarize_upload(upload));
  return kExitSuccess;
}

std::string uploaded_id(KtuneClient& client, const std::string& file) {
  const json upload = client.upload_matrix(file);
  if (!upload.contains("id") || !upload["id"].is_string()) {
    throw ClientError(kMalformedAnswer, "ktuned's upload answer has no id");
  }
  return upload["id"].get<std::string>();
}

int run_tune(KtuneClient& client, const CliArgs& args, CliIo& io) {
  // Never "wait": true: polling the job is what lets the CLI show progress.
  json request{{"kernel", args.kernel}, {"wait", false}};
  // Neither FILE nor --generator: a dense kernel, whose workload is its problem's shape.
  if (args.generator) request["workload"] = *args.generator;
  else if (!args.file.empty()) request["workload"] = json{{"upload", uploaded_id(client, args.file)}};
  if (args.dtype_given) request["dtype"] = args.dtype;
  if (args.problem) request["problem"] = *args.problem;
  if (args.budget) request["budget"] = {{"measurements", *args.budget}};

  const json answer = client.tune(request);
  const bool is_job_ticket = answer.contains("job") && answer["job"].is_string();
  if (!is_job_ticket) {  // answered from the store at once
    print(io, args, answer, summarize_tune_answer(answer));
    return kExitSuccess;
  }
  const std::string id = answer["job"].get<std::string>();
  if (!args.wait) {
    print(io, args, answer,
          "job " + id + " " + answer.value("state", std::string("queued")) +
              "\nfollow it with: ktune job " + id + " --wait\n");
    return kExitSuccess;
  }
  const json job = follow_job(client, id, io);
  if (job_failed(job)) {
    if (args.json) io.out << job.dump(2) << "\n";
    report_job_failure(job, io);
    return kExitJobFailed;
  }
  if (!job.contains("best") || !job["best"].is_object()) {
    throw ClientError(kMalformedAnswer, "job " + id + " finished without an answer");
  }
  print(io, args, job["best"], summarize_tune_answer(job["best"]));
  return kExitSuccess;
}

int run_job(KtuneClient& client, const CliArgs& args, CliIo& io) {
  const json job = args.wait ? follow_job(client, args.job_id, io) : client.job(args.job_id);
  print(io, args, job, summarize_job(job));
  if (!job_failed(job)) return kExitSuccess;
  report_job_failure(job, io);
  return kExitJobFailed;
}

int run_cancel(KtuneClient& client, const CliArgs& args, CliIo& io) {
  const json job = client.cancel(args.job_id);
  print(io, args, job, "job " + args.job_id + " " + job.value("state", std::string("cancelled")) + "\n");
  return kExitSuccess;
}

int run_lookup(KtuneClient& client, const CliArgs& args, CliIo& io) {
  std::string signature = args.signature;
  std::vector<double> features;
  if (!args.file.empty()) {
    const json upload = client.upload_matrix(args.file);
    signature = exact_signature(upload);
    features = signature_features(upload);
    if (signature.empty()) throw ClientError(kMalformedAnswer, "ktuned's upload answer has no signature");
  }
  json answer;
  try {
    answer = client.lookup(args.kernel, signature, args.dtype, args.device, features);
  } catch (const ClientError& e) {
    if (e.http_status != 404) throw;
    io.err << "ktune: nothing stored: " << e.message << "\n";
    return kExitNotFound;
  }
  print(io, args, answer, summarize_tune_answer(answer));
  // A "default" answer is the family's untuned default: nothing was stored for this workload.
  if (answer.value("match", std::string()) == "default") {
    io.err << "ktune: nothing stored for this workload; the answer is the family default\n";
    return kExitNotFound;
  }
  return kExitSuccess;
}

int run_report(KtuneClient& client, const CliArgs& args, CliIo& io) {
  if (args.json) io.out << client.report().dump(2) << "\n";
  else io.out << client.report_text();
  return kExitSuccess;
}

int run_kernels(KtuneClient& client, const CliArgs& args, CliIo& io) {
  const json kernels = client.kernels();
  print(io, args, kernels, summarize_kernels(kernels));
  return kExitSuccess;
}

int run_calibrate(KtuneClient& client, const CliArgs& args, CliIo& io) {
  const json device = client.calibrate(args.device.value_or("this"));
  print(io, args, device, summarize_calibration(device));
  return kExitSuccess;
}

int dispatch(KtuneClient& client, const CliArgs& args, CliIo& io) {
  switch (args.command) {
    case Command::Upload: return run_upload(client, args, io);
    case Command::Tune: return run_tune(client, args, io);
    case Command::Job: return run_job(client, args, io);
    case Command::Cancel: return run_cancel(client, args, io);
    case Command::Lookup: return run_lookup(client, args, io);
    case Command::Report: return run_report(client, args, io);
    case Command::Kernels: return run_kernels(client, args, io);
    case Command::Calibrate: return run_calibrate(client, args, io);
    case Command::Help: break;
  }
  io.out << usage_text();
  return kExitSuccess;
}

}  // namespace

int run_command(const CliArgs& args, CliIo& io) {
  KtuneClient client(args.server.host, args.server.port);
  try {
    return dispatch(client, args, io);
  } catch (const FileReadError& e) {
    io.err << "ktune: " << e.what() << "\n";
    return kExitUsage;
  } catch (const ClientError& e) {
    io.err << "ktune: " << e.message;
    if (e.http_status == 0) io.err << "; start ktuned, or point --server or KTUNE_SERVER at it";
    else if (e.http_status >= 400) io.err << " (HTTP " << e.http_status << ")";
    io.err << "\n";
    return exit_code_for_http_status(e.http_status);
  } catch (const json::exception& e) {
    io.err << "ktune: unexpected answer from ktuned: " << e.what() << "\n";
    return kExitServerError;
  }
}

int run_ktune(const std::vector<std::string>& args, const char* env_server, CliIo& io) {
  try {
    return run_command(parse_args(args, env_server), io);
  } catch (const UsageError& e) {
    io.err << "ktune: " << e.what() << "\nsee: ktune --help\n";
    return kExitUsage;
  }
}

}  // namespace ktune
