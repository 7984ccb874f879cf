#pragma once
// Short human summaries of the daemon's answers; `--json` prints the answers raw instead.
// Every field may be missing or null (older or newer daemons): it reads as "-".
#include <string>

#include <nlohmann/json.hpp>

namespace ktune {

std::string summarize_tune_answer(const nlohmann::json& answer);
std::string summarize_upload(const nlohmann::json& upload);
std::string summarize_job(const nlohmann::json& job);
std::string summarize_kernels(const nlohmann::json& kernels);
std::string summarize_calibration(const nlohmann::json& device);

}  // namespace ktune
