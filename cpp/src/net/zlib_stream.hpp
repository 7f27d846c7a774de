#pragma once
// The Gateway's `compress=zlib-stream` transport compression (docs/wire.md: Gateway): the server sends one
// zlib stream per connection, cut into binary frames; every message ends with a Z_SYNC_FLUSH, the
// bytes 00 00 ff ff. A message may span several frames, so frames are buffered until the suffix.
// Beast's inflate_stream decodes raw deflate only, so the 2-byte zlib header is checked and skipped
// here; the Adler-32 trailer never comes, since the stream lasts as long as the connection.

#include <boost/beast/zlib/inflate_stream.hpp>
#include <boost/system/error_code.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace platformpp::net {

class ZlibStreamInflater {
public:
    // Takes one frame. Returns the inflated message once a frame ends with the flush suffix, nullopt
    // while a message is incomplete or on error (ec set; the stream is unusable afterwards).
    std::optional<std::string> Feed(std::string_view frame, boost::system::error_code& ec);

private:
    boost::beast::zlib::inflate_stream inflater_;
    std::string pending_;     // compressed bytes of the message being received
    std::string header_;      // the zlib header, until both bytes were seen
    bool failed_ = false;
};

}  // namespace platformpp::net
