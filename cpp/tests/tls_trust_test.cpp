// Where the SDK reads trusted authorities from on a machine it was not built on: the first CA bundle and
// hashed directory of the usual distribution layouts, or only what SSL_CERT_FILE / SSL_CERT_DIR name.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include <unistd.h>

#include "net/tls.hpp"

using platformpp::net::FindTrustLocations;
namespace fs = std::filesystem;

namespace {

// Sets (or, with nullopt, unsets) an environment variable for the scope, restoring it after.
class ScopedEnv {
public:
    ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        if (value) setenv(name, value->c_str(), 1);
        else unsetenv(name);
    }
    ~ScopedEnv() {
        if (old_) setenv(name_, old_->c_str(), 1);
        else unsetenv(name_);
    }

private:
    const char* name_;
    std::optional<std::string> old_;
};

// A fake file system root holding `files` (each with one line).
struct FakeRoot {
    explicit FakeRoot(std::initializer_list<const char*> files) {
        path = fs::temp_directory_path() / ("platformpp-trust-" + std::to_string(::getpid()) + "-" + std::to_string(++count));
        fs::remove_all(path);
        for (const char* file : files) {
            fs::create_directories((path / fs::path(file).relative_path()).parent_path());
            std::ofstream(path / fs::path(file).relative_path()) << "-----BEGIN CERTIFICATE-----\n";
        }
    }
    ~FakeRoot() { fs::remove_all(path); }
    std::string Root() const { return path.string(); }
    fs::path path;
    static inline int count = 0;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(tls_trust)

BOOST_AUTO_TEST_CASE(finds_the_bundle_of_each_distribution_layout) {
    ScopedEnv file("SSL_CERT_FILE", std::nullopt), dir("SSL_CERT_DIR", std::nullopt);
    struct Layout {
        const char* bundle;
        const char* dir;
    };
    for (const Layout layout : {Layout{"/etc/ssl/certs/ca-certificates.crt", "/etc/ssl/certs"},       // Debian, Arch
                                Layout{"/etc/pki/tls/certs/ca-bundle.crt", "/etc/pki/tls/certs"},      // Fedora
                                Layout{"/etc/ssl/ca-bundle.pem", "/etc/ssl/certs"},                    // openSUSE
                                Layout{"/etc/ssl/cert.pem", ""}}) {                                      // Alpine, bare
        FakeRoot root{layout.bundle};
        if (*layout.dir) fs::create_directories(root.path / fs::path(layout.dir).relative_path());
        const auto found = FindTrustLocations(root.Root());
        BOOST_TEST(found.file == root.Root() + layout.bundle);
        BOOST_TEST(found.dir == (*layout.dir ? root.Root() + layout.dir : std::string()));
        BOOST_TEST(!found.fromEnvironment);
    }
    FakeRoot empty{};
    const auto none = FindTrustLocations(empty.Root());
    BOOST_TEST(none.file.empty());
    BOOST_TEST(none.dir.empty());
}

BOOST_AUTO_TEST_CASE(the_environment_overrides_the_probe) {
    FakeRoot root{"/etc/ssl/certs/ca-certificates.crt"};
    {
        ScopedEnv file("SSL_CERT_FILE", std::string("/opt/my-ca.pem")), dir("SSL_CERT_DIR", std::nullopt);
        const auto found = FindTrustLocations(root.Root());
        BOOST_TEST(found.fromEnvironment);
        BOOST_TEST(found.file == "/opt/my-ca.pem");
        BOOST_TEST(found.dir.empty());
    }
    {
        ScopedEnv file("SSL_CERT_FILE", std::nullopt), dir("SSL_CERT_DIR", std::string("/opt/my-certs"));
        const auto found = FindTrustLocations(root.Root());
        BOOST_TEST(found.fromEnvironment);
        BOOST_TEST(found.file.empty());
        BOOST_TEST(found.dir == "/opt/my-certs");
    }
}

BOOST_AUTO_TEST_SUITE_END()
