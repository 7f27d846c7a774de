#include "net/http_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <boost/json/parse.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <map>
#include <mutex>
#include <openssl/ssl.h>
#include <set>

#include "net/no_delay.hpp"
#include "net/url.hpp"

namespace platformpp::net {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using boost::system::error_code;

constexpr std::size_t kMaxIdlePerHost = 4;
constexpr const char* kUserAgent = "platformpp/" PLATFORMPP_VERSION_STRING;

bool IEquals(const std::string& a, const std::string& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

double ParseSeconds(const std::string* text) {
    if (text == nullptr) return 0;
    try {
        return std::max(0.0, std::stod(*text));
    } catch (...) {
        return 0;
    }
}

// A reused keep-alive connection that the server closed while idle shows one of these.
bool IsStaleConnectionError(const error_code& ec) {
    return ec == http::error::end_of_stream || ec == asio::error::eof || ec == asio::error::connection_reset ||
           ec == asio::error::broken_pipe || ec == asio::error::connection_aborted ||
           ec == asio::ssl::error::stream_truncated;
}

struct Connection {
    std::string authority;
    bool secure = false;
    std::unique_ptr<beast::tcp_stream> plain;
    std::unique_ptr<beast::ssl_stream<beast::tcp_stream>> tls;
    beast::flat_buffer buffer;

    beast::tcp_stream& Lowest() { return secure ? beast::get_lowest_layer(*tls) : *plain; }
    void Close() {
        error_code ignored;
        Lowest().socket().close(ignored);
    }
};

struct Bucket {
    long remaining = 1;
    Clock::time_point resetAt{};
};

}  // namespace

const std::string* HttpResponse::Header(const std::string& name) const {
    for (const auto& [key, value] : headers) {
        if (IEquals(key, name)) return &value;
    }
    return nullptr;
}

struct HttpClient::State : std::enable_shared_from_this<HttpClient::State> {
    struct Exchange;

    State(asio::io_context& io, asio::ssl::context& tls, core::LogSink log) : io(io), tls(tls), log(std::move(log)) {}

    asio::io_context& io;
    asio::ssl::context& tls;
    core::LogSink log;
    std::chrono::milliseconds timeout{30'000};  // read on the io thread only

    std::map<std::string, std::vector<std::unique_ptr<Connection>>> idle;  // by authority
    std::set<std::shared_ptr<Exchange>> inFlight;
    std::map<std::string, std::string> bucketOfRoute;
    std::map<std::string, Bucket> buckets;
    Clock::time_point globalPauseUntil{};
    std::atomic<std::size_t> connectionsOpened{0};

    void Log(LoggingSeverity severity, const std::string& line) const {
        if (log) log(severity, line);
    }

    std::unique_ptr<Connection> TakeIdle(const std::string& authority) {
        auto it = idle.find(authority);
        if (it == idle.end() || it->second.empty()) return nullptr;
        auto connection = std::move(it->second.back());
        it->second.pop_back();
        return connection;
    }

    void ReturnIdle(std::unique_ptr<Connection> connection) {
        auto& list = idle[connection->authority];
        if (list.size() >= kMaxIdlePerHost) {
            connection->Close();
            return;
        }
        connection->buffer.clear();
        list.push_back(std::move(connection));
    }

    // How long a request of `route` must wait before it may be sent.
    Clock::duration WaitFor(const std::string& route) const {
        auto until = globalPauseUntil;
        if (auto b = bucketOfRoute.find(route); b != bucketOfRoute.end()) {
            if (auto state = buckets.find(b->second); state != buckets.end() && state->second.remaining <= 0) {
                until = std::max(until, state->second.resetAt);
            }
        }
        return std::max(Clock::duration::zero(), until - Clock::now());
    }

    void Consume(const std::string& route) {
        if (auto b = bucketOfRoute.find(route); b != bucketOfRoute.end()) {
            auto& bucket = buckets[b->second];
            if (Clock::now() >= bucket.resetAt && bucket.remaining <= 0) bucket.remaining = 1;
            --bucket.remaining;
        }
    }

    void LearnRateLimit(const std::string& route, const HttpResponse& response) {
        const std::string* id = response.Header("X-RateLimit-Bucket");
        const std::string* remaining = response.Header("X-RateLimit-Remaining");
        const std::string* resetAfter = response.Header("X-RateLimit-Reset-After");
        if (id == nullptr || remaining == nullptr || resetAfter == nullptr) return;
        bucketOfRoute[route] = *id;
        auto& bucket = buckets[*id];
        bucket.remaining = static_cast<long>(ParseSeconds(remaining));
        bucket.resetAt = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                            std::chrono::duration<double>(ParseSeconds(resetAfter)));
    }

    void CancelAll();
};

// One request, from the rate-limit gate to its completion, including its 429 retries.
struct HttpClient::State::Exchange : std::enable_shared_from_this<HttpClient::State::Exchange> {
    Exchange(std::shared_ptr<State> state, HttpRequest request, Url url, std::function<void(HttpResponse)> done)
      : state(std::move(state)),
        request(std::move(request)),
        url(std::move(url)),
        done(std::move(done)),
        timer(this->state->io),
        resolver(this->state->io) {
        if (this->request.route.empty()) {
            const auto query = this->url.target.find('?');
            this->request.route = this->request.method + " " + this->url.target.substr(0, query);
        }
    }

    std::shared_ptr<State> state;
    HttpRequest request;
    Url url;
    std::function<void(HttpResponse)> done;
    asio::steady_timer timer;
    tcp::resolver resolver;
    std::unique_ptr<Connection> connection;
    bool reused = false;
    bool retriedStale = false;
    int retries429 = 0;
    bool finished = false;
    http::request<http::string_body> wireRequest;
    http::response<http::string_body> wireResponse;

    void Gate() {
        const auto wait = state->WaitFor(request.route);
        if (wait > Clock::duration::zero()) {
            timer.expires_after(wait);
            timer.async_wait([self = shared_from_this()](const error_code& ec) {
                if (ec) return;  // aborted: Abort() already completed the exchange
                self->Gate();
            });
            return;
        }
        state->Consume(request.route);
        Acquire();
    }

    void Acquire() {
        connection = state->TakeIdle(url.Authority());
        reused = connection != nullptr;
        if (reused) {
            Write();
            return;
        }
        connection = std::make_unique<Connection>();
        ++state->connectionsOpened;
        connection->authority = url.Authority();
        connection->secure = url.Secure();
        if (connection->secure) {
            connection->tls = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(state->io, state->tls);
        } else {
            connection->plain = std::make_unique<beast::tcp_stream>(state->io);
        }
        resolver.async_resolve(url.host, std::to_string(url.port),
                               [self = shared_from_this()](const error_code& ec, const tcp::resolver::results_type& results) {
                                   if (ec) return self->Fail(ec, "cannot resolve " + self->url.host);
                                   self->Connect(results);
                               });
    }

    void Connect(const tcp::resolver::results_type& results) {
        connection->Lowest().expires_after(state->timeout);
        connection->Lowest().async_connect(results, [self = shared_from_this()](const error_code& ec, const tcp::endpoint&) {
            if (ec) return self->Fail(ec, "cannot connect to " + self->url.Authority());
            TurnOffNagle(self->connection->Lowest().socket());
            if (!self->connection->secure) return self->Write();
            self->Handshake();
        });
    }

    void Handshake() {
        auto& stream = *connection->tls;
        // SNI, and the certificate must name the host we asked for.
        if (!SSL_set_tlsext_host_name(stream.native_handle(), url.host.c_str())) {
            return Fail(error_code(static_cast<int>(::ERR_get_error()), asio::error::get_ssl_category()), "TLS SNI failed");
        }
        stream.set_verify_callback(asio::ssl::host_name_verification(url.host));
        connection->Lowest().expires_after(state->timeout);
        stream.async_handshake(asio::ssl::stream_base::client, [self = shared_from_this()](const error_code& ec) {
            if (ec) return self->Fail(ec, "TLS handshake with " + self->url.host + " failed");
            self->Write();
        });
    }

    void Write() {
        wireRequest = {};
        wireRequest.method_string(request.method);
        wireRequest.target(url.target);
        wireRequest.version(11);
        wireRequest.set(http::field::host, url.HostHeader());
        wireRequest.set(http::field::user_agent, kUserAgent);
        wireRequest.keep_alive(true);
        for (const auto& [name, value] : request.headers) wireRequest.set(name, value);
        if (!request.contentType.empty()) wireRequest.set(http::field::content_type, request.contentType);
        wireRequest.body() = request.body;
        wireRequest.prepare_payload();
        connection->Lowest().expires_after(state->timeout);
        auto onWritten = [self = shared_from_this()](const error_code& ec, std::size_t) {
            if (ec) return self->TransportError(ec, "sending the request failed");
            self->Read();
        };
        if (connection->secure) http::async_write(*connection->tls, wireRequest, std::move(onWritten));
        else http::async_write(*connection->plain, wireRequest, std::move(onWritten));
    }

    void Read() {
        wireResponse = {};
        connection->Lowest().expires_after(state->timeout);
        auto onRead = [self = shared_from_this()](const error_code& ec, std::size_t) {
            if (ec) return self->TransportError(ec, "reading the response failed");
            self->Received();
        };
        if (connection->secure) http::async_read(*connection->tls, connection->buffer, wireResponse, std::move(onRead));
        else http::async_read(*connection->plain, connection->buffer, wireResponse, std::move(onRead));
    }

    void TransportError(const error_code& ec, const std::string& what) {
        if (finished) return;
        connection->Close();
        connection.reset();
        if (reused && !retriedStale && IsStaleConnectionError(ec)) {
            retriedStale = true;  // the server closed an idle keep-alive connection: use a fresh one
            return Acquire();
        }
        Fail(ec == beast::error::timeout ? asio::error::timed_out : ec,
             ec == beast::error::timeout ? "timed out after " + std::to_string(state->timeout.count()) + " ms" : what);
    }

    void Received() {
        HttpResponse response;
        response.status = static_cast<int>(wireResponse.result_int());
        for (const auto& field : wireResponse) response.headers.emplace_back(field.name_string(), field.value());
        response.body = std::move(wireResponse.body());
        if (wireResponse.keep_alive()) state->ReturnIdle(std::move(connection));
        else connection->Close();
        connection.reset();
        state->LearnRateLimit(request.route, response);
        if (response.status == 429) return RateLimited(std::move(response));
        Complete(std::move(response));
    }

    void RateLimited(HttpResponse response) {
        double retryAfter = ParseSeconds(response.Header("Retry-After"));
        bool global = response.Header("X-RateLimit-Global") != nullptr;
        error_code ec;
        const auto body = boost::json::parse(response.body, ec);
        if (!ec && body.is_object()) {
            if (const auto* value = body.as_object().if_contains("retry_after"); value && value->is_number())
                retryAfter = value->to_number<double>();
            if (const auto* value = body.as_object().if_contains("global"); value && value->is_bool())
                global = global || value->as_bool();
        }
        if (retries429 >= kMax429Retries) {
            response.retryAfterSeconds = retryAfter;
            return Complete(std::move(response));
        }
        ++retries429;
        const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(retryAfter));
        if (global) state->globalPauseUntil = std::max(state->globalPauseUntil, until);
        else if (auto b = state->bucketOfRoute.find(request.route); b != state->bucketOfRoute.end()) {
            auto& bucket = state->buckets[b->second];
            bucket.remaining = 0;
            bucket.resetAt = std::max(bucket.resetAt, until);
        }
        state->Log(LoggingSeverity::Warning, "HTTP 429 on " + request.route + (global ? " (global)" : "") +
                                                 ": retrying in " + std::to_string(retryAfter) + " s");
        timer.expires_at(until);
        timer.async_wait([self = shared_from_this()](const error_code& waitError) {
            if (waitError) return;
            self->Gate();
        });
    }

    void Fail(const error_code& ec, const std::string& detail) {
        HttpResponse response;
        response.error = ec;
        response.errorDetail = detail + " (" + ec.message() + ")";
        Complete(std::move(response));
    }

    void Abort() {
        timer.cancel();
        resolver.cancel();
        if (connection) connection->Close();
        Fail(asio::error::operation_aborted, "the request was cancelled");
    }

    void Complete(HttpResponse response) {
        if (finished) return;
        finished = true;
        timer.cancel();
        state->inFlight.erase(shared_from_this());
        state->Log(response.error ? LoggingSeverity::Warning : LoggingSeverity::Verbose,
                   request.method + " " + url.scheme + "://" + url.Authority() + url.target.substr(0, url.target.find('?')) +
                       (response.error ? " failed: " + response.errorDetail : " -> " + std::to_string(response.status)));
        auto callback = std::move(done);
        if (callback) callback(std::move(response));
    }
};

void HttpClient::State::CancelAll() {
    for (auto& [authority, list] : idle) {
        for (auto& connection : list) connection->Close();
    }
    idle.clear();
    auto pending = std::move(inFlight);
    for (const auto& exchange : pending) exchange->Abort();
}

HttpClient::HttpClient(asio::io_context& io, asio::ssl::context& tls, core::LogSink log)
  : state_(std::make_shared<State>(io, tls, std::move(log))) {}

HttpClient::~HttpClient() { CancelAll(); }

void HttpClient::SetTimeout(std::chrono::milliseconds timeout) {
    asio::post(state_->io, [state = state_, timeout] { state->timeout = timeout; });
}

void HttpClient::Send(HttpRequest request, std::function<void(HttpResponse)> done) {
    asio::post(state_->io, [state = state_, request = std::move(request), done = std::move(done)]() mutable {
        auto url = ParseUrl(request.url);
        if (!url || (url->scheme != "http" && url->scheme != "https")) {
            HttpResponse response;
            response.error = asio::error::invalid_argument;
            response.errorDetail = "not an absolute http(s) URL";
            if (done) done(std::move(response));
            return;
        }
        auto exchange = std::make_shared<State::Exchange>(state, std::move(request), std::move(*url), std::move(done));
        state->inFlight.insert(exchange);
        exchange->Gate();
    });
}

std::size_t HttpClient::ConnectionsOpened() const { return state_->connectionsOpened.load(); }

void HttpClient::CancelAll() {
    asio::post(state_->io, [state = state_] { state->CancelAll(); });
}

}  // namespace platformpp::net
