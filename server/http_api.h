#pragma once
// The /v1 REST routes of docs/api.md on a cpp-httplib server.
#include <httplib.h>

#include <string>

#include "server/service.h"

namespace ktune {

// Registers every route, the error mapping (InputError 400, LimitError 413, NotFoundError 404,
// ForbiddenError 403, anything else 500) and per-route timing into the service's metrics.
// With a non-empty `token`, every route but /healthz answers 401 unless the request carries
// "Authorization: Bearer <token>".
void install_routes(httplib::Server& server, Service& service, size_t max_body_bytes, const std::string& token);

}  // namespace ktune
