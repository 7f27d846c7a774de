#include "net/tls.hpp"

namespace platformpp::net {

boost::asio::ssl::context MakeClientTlsContext(const std::string& extraCaFile) {
    namespace ssl = boost::asio::ssl;
    ssl::context context(ssl::context::tls_client);
    context.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                        ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
    context.set_default_verify_paths();
    if (!extraCaFile.empty()) context.load_verify_file(extraCaFile);
    context.set_verify_mode(ssl::verify_peer);
    return context;
}

}  // namespace platformpp::net
