#include "net/tls.hpp"

#include <openssl/ssl.h>
#include <sys/stat.h>

#include <cstdlib>

namespace platformpp::net {
namespace {

// The CA bundle files and directories of the common distributions, most specific first (the list Go's
// crypto/x509 probes on Linux).
constexpr const char* kCaFiles[] = {
    "/etc/ssl/certs/ca-certificates.crt",                 // Debian, Ubuntu, Gentoo, Arch, Alpine
    "/etc/pki/tls/certs/ca-bundle.crt",                   // Fedora, RHEL 6
    "/etc/ssl/ca-bundle.pem",                             // openSUSE
    "/etc/pki/tls/cacert.pem",                            // OpenELEC
    "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",  // CentOS, RHEL 7+
    "/etc/ssl/cert.pem",                                  // Alpine, Arch
};
constexpr const char* kCaDirs[] = {
    "/etc/ssl/certs",                    // Debian, Ubuntu, Arch, Alpine, SUSE
    "/etc/pki/tls/certs",                // Fedora, RHEL
    "/var/lib/ca-certificates/openssl",  // openSUSE
};

bool IsFile(const std::string& path) {
    struct stat info {};
    return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0;
}
bool IsDir(const std::string& path) {
    struct stat info {};
    return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}
std::string Env(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

}  // namespace

TrustLocations FindTrustLocations(const std::string& root) {
    TrustLocations found;
    found.file = Env("SSL_CERT_FILE");
    found.dir = Env("SSL_CERT_DIR");
    if (!found.file.empty() || !found.dir.empty()) {
        found.fromEnvironment = true;
        return found;
    }
    for (const char* file : kCaFiles)
        if (IsFile(root + file)) {
            found.file = root + file;
            break;
        }
    for (const char* dir : kCaDirs)
        if (IsDir(root + dir)) {
            found.dir = root + dir;
            break;
        }
    return found;
}

boost::asio::ssl::context MakeClientTlsContext(const std::string& extraCaFile) {
    namespace ssl = boost::asio::ssl;
    ssl::context context(ssl::context::tls_client);
    context.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                        ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
    const TrustLocations trust = FindTrustLocations();
    if (trust.fromEnvironment) {
        // The override: what the variables name and nothing else.
        SSL_CTX_load_verify_locations(context.native_handle(), trust.file.empty() ? nullptr : trust.file.c_str(),
                                      trust.dir.empty() ? nullptr : trust.dir.c_str());
    } else {
        boost::system::error_code ignored;
        context.set_default_verify_paths(ignored);  // the OpenSSL build's own OPENSSLDIR, when it exists here
        if (!trust.file.empty()) context.load_verify_file(trust.file, ignored);
        if (!trust.dir.empty()) context.add_verify_path(trust.dir, ignored);
    }
    if (!extraCaFile.empty()) context.load_verify_file(extraCaFile);
    context.set_verify_mode(ssl::verify_peer);
    return context;
}

}  // namespace platformpp::net
