#include "server/http_api.h"

#include <chrono>
#include <functional>

#include "server/auth.h"
#include "server/dashboard_assets.h"
#include "server/json_body.h"
#include "server/logging.h"
#include "server/service_errors.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

using Handler = std::function<void(const httplib::Request&, httplib::Response&)>;

void send_json(httplib::Response& res, int status, const nlohmann::json& body) {
  res.status = status;
  res.set_content(dump_for_client(body), "application/json");
}

void send_error(httplib::Response& res, int status, const std::string& message) {
  send_json(res, status, {{"error", message}});
}

// Wraps a handler with the error mapping and the latency metric of its route.
Handler guarded(Service& service, std::string route, Handler handler) {
  return [&service, route = std::move(route), handler = std::move(handler)](const httplib::Request& req,
                                                                             httplib::Response& res) {
    const auto start = std::chrono::steady_clock::now();
    try {
      handler(req, res);
    } catch (const LimitError& e) {
      send_error(res, 413, e.what());
    } catch (const NotFoundError& e) {
      send_error(res, 404, e.what());
    } catch (const ForbiddenError& e) {
      send_error(res, 403, e.what());
    } catch (const InputError& e) {
      send_error(res, 400, e.what());
    } catch (const UnavailableError& e) {
      send_error(res, 503, e.what());
    } catch (const ConflictError& e) {
      send_error(res, 409, e.what());
    } catch (const nlohmann::json::exception& e) {
      send_error(res, 400, std::string("malformed JSON request: ") + e.what());
    } catch (const std::exception& e) {
      log_error(route + ": " + e.what());
      send_error(res, 500, std::string("internal error: ") + e.what());
    }
    service.metrics().record_request(
        route, res.status, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  };
}

nlohmann::json parse_body(const httplib::Request& req) { return parse_json_object(req.body, "the request body"); }

bool wants_text(const httplib::Request& req) {
  return req.get_param_value("format") == "text" ||
         (req.has_header("Accept") && req.get_header_value("Accept").find("text/plain") != std::string::npos);
}

// The page and its files (server/dashboard_assets.h). The policy lets the page load only its
// own scripts and styles and talk only to this daemon.
void serve_dashboard(const httplib::Request& req, httplib::Response& res) {
  const DashboardAsset* asset = dashboard_asset(req.path);
  if (!asset) throw NotFoundError("no dashboard file " + req.path);
  res.set_header("Content-Security-Policy",
                 "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'");
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("Cache-Control", "no-cache");
  res.set_content(asset->content.data(), asset->content.size(), asset->content_type);
}

}  // namespace

void install_routes(httplib::Server& server, Service& service, size_t max_body_bytes, const std::string& token) {
  server.set_payload_max_length(max_body_bytes);
  if (!token.empty()) {
    server.set_pre_routing_handler([&service, token](const httplib::Request& req, httplib::Response& res) {
      if (req.path == "/healthz" || dashboard_asset(req.path) ||
          bearer_token_matches(req.get_header_value("Authorization"), token))
        return httplib::Server::HandlerResponse::Unhandled;
      res.set_header("WWW-Authenticate", "Bearer");
      send_error(res, 401, "missing or wrong bearer token: send 'Authorization: Bearer <token>' (KTUNE_TOKEN for the clients)");
      service.metrics().record_request("unauthorized", 401, 0);
      return httplib::Server::HandlerResponse::Handled;
    });
  }

  server.Get("/healthz", guarded(service, "/healthz", [](const httplib::Request&, httplib::Response& res) {
               res.set_content("ok\n", "text/plain");
             }));
  server.Get("/metrics", guarded(service, "/metrics", [&service](const httplib::Request&, httplib::Response& res) {
               res.set_content(service.metrics_text(), "text/plain; version=0.0.4");
             }));
  server.Post("/v1/matrices", guarded(service, "/v1/matrices", [&service](const httplib::Request& req, httplib::Response& res) {
                bool created = false;
                nlohmann::json body = service.upload_matrix(req.body, req.get_param_value("name"), &created);
                send_json(res, created ? 201 : 200, body);
              }));
  server.Delete(R"(/v1/matrices/([A-Za-z0-9_-]+))",
                guarded(service, "/v1/matrices/{id}", [&service](const httplib::Request& req, httplib::Response& res) {
                  send_json(res, 200, service.delete_upload(req.matches[1]));
                }));
  server.Post("/v1/tune", guarded(service, "/v1/tune", [&service](const httplib::Request& req, httplib::Response& res) {
                TuneReply reply = service.tune(parse_body(req));
                send_json(res, reply.status, reply.body);
              }));
  server.Get("/v1/jobs", guarded(service, "/v1/jobs", [&service](const httplib::Request& req, httplib::Response& res) {
               send_json(res, 200, service.jobs(req.get_param_value("state"), req.get_param_value("limit")));
             }));
  server.Get(R"(/v1/jobs/([A-Za-z0-9_-]+)/candidates)",
             guarded(service, "/v1/jobs/{id}/candidates", [&service](const httplib::Request& req, httplib::Response& res) {
               send_json(res, 200, service.job_candidates(req.matches[1]));
             }));
  server.Get(R"(/v1/jobs/([A-Za-z0-9_-]+))",
             guarded(service, "/v1/jobs/{id}", [&service](const httplib::Request& req, httplib::Response& res) {
               send_json(res, 200, service.job(req.matches[1]));
             }));
  server.Delete(R"(/v1/jobs/([A-Za-z0-9_-]+))",
                guarded(service, "/v1/jobs/{id}", [&service](const httplib::Request& req, httplib::Response& res) {
                  send_json(res, 200, service.cancel_job(req.matches[1]));
                }));
  server.Get("/v1/configs", guarded(service, "/v1/configs", [&service](const httplib::Request& req, httplib::Response& res) {
               // A dense family's workload is its problem: it takes no signature (Service::lookup).
               for (const char* required : {"kernel", "dtype"})
                 if (!req.has_param(required))
                   throw InputError(std::string("missing query parameter '") + required +
                                    "' (kernel, signature, dtype are required; a dense kernel takes no signature)");
               send_json(res, 200,
                         service.lookup(req.get_param_value("kernel"), req.get_param_value("signature"),
                                        req.get_param_value("dtype"), req.get_param_value("device"),
                                        req.get_param_value("features"), req.get_param_value("problem")));
             }));
  server.Get("/v1/kernels", guarded(service, "/v1/kernels", [&service](const httplib::Request&, httplib::Response& res) {
               send_json(res, 200, service.kernels());
             }));
  server.Get("/v1/devices", guarded(service, "/v1/devices", [&service](const httplib::Request&, httplib::Response& res) {
               send_json(res, 200, service.devices());
             }));
  server.Get(R"(/v1/devices/([^/]+))",
             guarded(service, "/v1/devices/{id}", [&service](const httplib::Request& req, httplib::Response& res) {
               send_json(res, 200, service.device(req.matches[1]));
             }));
  // Synchronous: the suite takes about a minute on the GPU and runs one at a time (409 otherwise).
  server.Post(R"(/v1/devices/([^/]+)/calibrate)",
              guarded(service, "/v1/devices/{id}/calibrate", [&service](const httplib::Request& req, httplib::Response& res) {
                send_json(res, 200, service.calibrate(req.matches[1]));
              }));
  server.Get("/v1/report", guarded(service, "/v1/report", [&service](const httplib::Request& req, httplib::Response& res) {
               if (wants_text(req))
                 res.set_content(service.report_text(), "text/plain");
               else
                 send_json(res, 200, service.report());
             }));
  server.Get("/", guarded(service, "/", serve_dashboard));
  server.Get(R"(/dashboard/[A-Za-z0-9_.-]+)", guarded(service, "/dashboard/{file}", serve_dashboard));
  server.set_error_handler([&service](const httplib::Request& req, httplib::Response& res) {
    // Only fill in bodies for errors no handler answered (unknown routes, oversized bodies);
    // those are counted here, the others by their route's guard.
    if (!res.body.empty()) return;
    service.metrics().record_request("unrouted", res.status, 0);
    if (res.status == 413)
      send_error(res, 413, "request body too large");
    else if (res.status == 404)
      send_error(res, 404, "no route " + req.method + " " + req.path);
    else
      send_error(res, res.status, "request failed");
  });
}

}  // namespace ktune
