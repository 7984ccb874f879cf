#include "clients/upload_answer.h"

namespace ktune {

using nlohmann::json;

std::string exact_signature(const json& upload) {
  if (!upload.is_object() || !upload.contains("signature")) return "";
  const json& signature = upload["signature"];
  if (signature.is_string()) return signature.get<std::string>();
  if (signature.is_object() && signature.contains("exact") && signature["exact"].is_string()) {
    return signature["exact"].get<std::string>();
  }
  return "";
}

std::vector<double> signature_features(const json& upload) {
  std::vector<double> features;
  if (!upload.is_object() || !upload.contains("signature")) return features;
  const json& signature = upload["signature"];
  if (!signature.is_object() || !signature.contains("features") ||
      !signature["features"].is_array()) {
    return features;
  }
  for (const json& value : signature["features"]) {
    if (!value.is_number()) return {};
    features.push_back(value.get<double>());
  }
  return features;
}

}  // namespace ktune
