#pragma once
// Integration tests run against a real emulator: `python -m platformpp emulator --port 0 --db :memory:`
// started as a child process, on loopback, and killed at the end of the test.

#include <string>
#include <sys/types.h>

namespace platformpp::testing {

class EmulatorProcess {
public:
    // Starts the emulator and waits for its "listening on" line. Throws std::runtime_error on failure.
    explicit EmulatorProcess(const std::string& extraArgs = {});
    ~EmulatorProcess();
    EmulatorProcess(const EmulatorProcess&) = delete;
    EmulatorProcess& operator=(const EmulatorProcess&) = delete;

    const std::string& BaseUrl() const { return baseUrl_; }   // http://127.0.0.1:PORT
    std::string ApiBase() const { return baseUrl_ + "/api/v10"; }
    std::string Host() const;
    unsigned short Port() const;

private:
    pid_t pid_ = -1;
    // The read end of the emulator's stdout, open while it runs: the few lines it prints after
    // "listening on" (its store, TLS trust) then never meet a closed pipe.
    int stdout_ = -1;
    std::string baseUrl_;
};

// A blocking HTTP/1.1 request to the emulator (test set-up and admin calls). Returns {status, body}.
struct TestResponse {
    int status = 0;
    std::string body;
    std::string location;  // the Location header, for redirects
};
TestResponse TestRequest(const EmulatorProcess& emulator, const std::string& method, const std::string& target,
                         const std::string& body = {}, const std::string& contentType = "application/json",
                         const std::string& authorization = {});

}  // namespace platformpp::testing
