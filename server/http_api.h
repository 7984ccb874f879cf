#pragma once
// The /v1 REST routes of docs/api.md on a cpp-httplib server.
#include <httplib.h>

#include "server/service.h"

namespace ktune {

// Registers every route, the error mapping (InputError 400, LimitError 413, NotFoundError 404,
// ForbiddenError 403, anything else 500) and per-route timing into the service's metrics.
void install_routes(httplib::Server& server, Service& service, size_t max_body_bytes);

}  // namespace ktune
