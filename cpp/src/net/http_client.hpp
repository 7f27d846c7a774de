#pragma once
// HTTP/1.1 client of the platform's API (docs/wire.md: HTTP API). Private to the core.
//
// - One pool of keep-alive connections per host:port (plain TCP for http, TLS with peer and host-name
//   verification for https); a reused connection that turns out stale is replaced once, transparently.
// - A timeout for each request (connect, write and read).
// - Rate limits: X-RateLimit-* buckets are learnt per route; a request whose bucket is exhausted waits
//   for its reset; a 429 waits `retry_after` (global 429s hold every request) and is sent again. No
//   request is ever dropped: after kMax429Retries it completes with the 429 itself.
// Send() may be called from any thread; completions run on the io_context's thread.

#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/system/error_code.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/log_sink.hpp"

namespace platformpp::net {

using Headers = std::vector<std::pair<std::string, std::string>>;

struct HttpRequest {
    std::string method = "GET";
    std::string url;           // absolute http(s) URL
    Headers headers;           // e.g. Authorization
    std::string body;
    std::string contentType;   // set when body is
    // The rate-limit route: method and path with ids of minor parameters replaced, e.g.
    // "POST /lobbies/{id}/messages". Requests of one route share a bucket. Empty: method + path.
    std::string route;
};

struct HttpResponse {
    boost::system::error_code error;  // a transport failure (then status is 0)
    std::string errorDetail;          // readable, never a secret
    int status = 0;
    Headers headers;
    std::string body;
    double retryAfterSeconds = 0;     // from a 429 that was given up on
    const std::string* Header(const std::string& name) const;  // case-insensitive; nullptr if absent
};

class HttpClient {
public:
    static constexpr int kMax429Retries = 50;

    HttpClient(boost::asio::io_context& io, boost::asio::ssl::context& tls, core::LogSink log);
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    void SetTimeout(std::chrono::milliseconds timeout);
    void Send(HttpRequest request, std::function<void(HttpResponse)> done);
    // Completes every pending request with boost::asio::error::operation_aborted and closes the pool.
    void CancelAll();
    // How many connections were opened so far (keep-alive reuse shows as fewer than requests).
    std::size_t ConnectionsOpened() const;

private:
    struct State;
    std::shared_ptr<State> state_;
};

}  // namespace platformpp::net
