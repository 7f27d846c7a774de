#include "support/emulator_process.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include <csignal>
#include <cstdio>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

#ifndef PLATFORMPP_TEST_PYTHON
#error "PLATFORMPP_TEST_PYTHON must name the Python that has platformpp[emulator] installed"
#endif

namespace platformpp::testing {

EmulatorProcess::EmulatorProcess(const std::string& extraArgs) {
    int out[2];
    if (pipe(out) != 0) throw std::runtime_error("pipe failed");
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
        dup2(out[1], STDOUT_FILENO);
        close(out[0]);
        close(out[1]);
        const std::string command = std::string("exec '") + PLATFORMPP_TEST_PYTHON +
                                    "' -m platformpp emulator --host 127.0.0.1 --port 0 --db :memory: " + extraArgs;
        execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    close(out[1]);
    std::string line;
    char c = 0;
    while (read(out[0], &c, 1) == 1 && c != '\n') line += c;
    stdout_ = out[0];  // the emulator logs to stderr; stdout carries a few lines, this one first
    const std::string prefix = "platformpp emulator listening on ";
    if (line.rfind(prefix, 0) != 0) {
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
        close(stdout_);
        throw std::runtime_error("the emulator did not start (is platformpp[emulator] installed for " +
                                 std::string(PLATFORMPP_TEST_PYTHON) + "?): " + line);
    }
    baseUrl_ = line.substr(prefix.size());
}

EmulatorProcess::~EmulatorProcess() {
    if (pid_ > 0) {
        kill(pid_, SIGTERM);
        waitpid(pid_, nullptr, 0);
    }
    if (stdout_ >= 0) close(stdout_);
}

std::string EmulatorProcess::Host() const {
    const auto hostStart = baseUrl_.find("://") + 3;
    return baseUrl_.substr(hostStart, baseUrl_.rfind(':') - hostStart);
}

unsigned short EmulatorProcess::Port() const {
    return static_cast<unsigned short>(std::stoi(baseUrl_.substr(baseUrl_.rfind(':') + 1)));
}

TestResponse TestRequest(const EmulatorProcess& emulator, const std::string& method, const std::string& target,
                         const std::string& body, const std::string& contentType, const std::string& authorization) {
    namespace beast = boost::beast;
    namespace http = beast::http;
    boost::asio::io_context io;
    boost::asio::ip::tcp::resolver resolver(io);
    boost::asio::ip::tcp::socket socket(io);
    boost::asio::connect(socket, resolver.resolve(emulator.Host(), std::to_string(emulator.Port())));
    http::request<http::string_body> request(http::string_to_verb(method), target, 11);
    request.set(http::field::host, emulator.Host());
    if (!authorization.empty()) request.set(http::field::authorization, authorization);
    if (!body.empty()) {
        request.set(http::field::content_type, contentType);
        request.body() = body;
    }
    request.prepare_payload();
    http::write(socket, request);
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    http::read(socket, buffer, response);
    beast::error_code ignored;
    socket.shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
    return {static_cast<int>(response.result_int()), response.body(),
            std::string(response[http::field::location])};
}

}  // namespace platformpp::testing
