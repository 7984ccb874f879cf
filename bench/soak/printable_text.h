#pragma once
// Bytes from or for the daemon as readable ASCII for reports: request bodies and answers may
// hold NULs and invalid UTF-8, which neither a terminal nor a JSON report can carry as is.
#include <string>
#include <string_view>

namespace ktune::soak {

// Printable ASCII kept (and newlines, when `keep_newlines`), every other byte as \xNN; cut
// after `max_bytes` of input, saying how many bytes there were in all.
std::string printable(std::string_view bytes, size_t max_bytes = 400, bool keep_newlines = false);

}  // namespace ktune::soak
