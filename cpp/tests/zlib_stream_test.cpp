#include <boost/test/unit_test.hpp>

#include <boost/beast/zlib/deflate_stream.hpp>

#include <array>
#include <string>
#include <vector>

#include "net/zlib_stream.hpp"

using platformpp::net::ZlibStreamInflater;
namespace zlib = boost::beast::zlib;

namespace {

// What the server does: one deflate stream for the connection, a sync flush after every message.
class Deflater {
public:
    Deflater() { deflater_.reset(6, 15, 8, zlib::Strategy::normal); }

    std::string Message(const std::string& text) {
        std::string out = first_ ? std::string("\x78\x9c", 2) : std::string();  // the zlib header
        first_ = false;
        std::array<char, 4096> chunk;
        zlib::z_params zs;
        zs.next_in = text.data();
        zs.avail_in = text.size();
        for (;;) {
            zs.next_out = chunk.data();
            zs.avail_out = chunk.size();
            boost::system::error_code ec;
            deflater_.write(zs, zlib::Flush::sync, ec);
            out.append(chunk.data(), chunk.size() - zs.avail_out);
            if (zs.avail_out != 0) break;
        }
        return out;
    }

private:
    zlib::deflate_stream deflater_;
    bool first_ = true;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(zlib_stream)

BOOST_AUTO_TEST_CASE(inflates_message_by_message_with_one_stream) {
    Deflater deflater;
    ZlibStreamInflater inflater;
    const std::vector<std::string> messages = {
        R"({"op":10,"d":{"heartbeat_interval":41250},"s":null,"t":null})",
        R"({"op":11,"d":null,"s":null,"t":null})",
        R"({"op":0,"d":{"content":")" + std::string(20000, 'x') + R"("},"s":1,"t":"LOBBY_MESSAGE_CREATE"})",
        R"({"op":11,"d":null,"s":null,"t":null})",  // repeats: only decodable with the shared window
    };
    for (const auto& text : messages) {
        const auto frame = deflater.Message(text);
        BOOST_TEST(frame.substr(frame.size() - 4) == std::string("\x00\x00\xff\xff", 4));
        boost::system::error_code ec;
        const auto inflated = inflater.Feed(frame, ec);
        BOOST_TEST(!ec);
        BOOST_REQUIRE(inflated);
        BOOST_TEST(*inflated == text);
    }
}

BOOST_AUTO_TEST_CASE(accumulates_frames_until_the_flush_suffix) {
    Deflater deflater;
    ZlibStreamInflater inflater;
    const std::string text = R"({"op":10,"d":{"heartbeat_interval":1000},"s":null,"t":null})";
    const auto frame = deflater.Message(text);
    boost::system::error_code ec;
    // Split inside the zlib header and inside the message body.
    BOOST_TEST(!inflater.Feed(frame.substr(0, 1), ec));
    BOOST_TEST(!ec);
    BOOST_TEST(!inflater.Feed(frame.substr(1, 5), ec));
    BOOST_TEST(!ec);
    const auto inflated = inflater.Feed(frame.substr(6), ec);
    BOOST_TEST(!ec);
    BOOST_REQUIRE(inflated);
    BOOST_TEST(*inflated == text);
    const auto next = inflater.Feed(deflater.Message("{}"), ec);
    BOOST_REQUIRE(next);
    BOOST_TEST(*next == "{}");
}

BOOST_AUTO_TEST_CASE(rejects_a_bad_header_and_corrupt_data) {
    boost::system::error_code ec;
    ZlibStreamInflater badHeader;
    BOOST_TEST(!badHeader.Feed(std::string("\x1f\x8b\x00\x00\xff\xff", 6), ec));  // a gzip header
    BOOST_TEST(ec.failed());

    ZlibStreamInflater corrupt;
    // Block type 3 (reserved) right after a valid header.
    BOOST_TEST(!corrupt.Feed(std::string("\x78\x9c\xff\xff\x00\x00\xff\xff", 8), ec));
    BOOST_TEST(ec.failed());
    // The stream stays failed.
    Deflater deflater;
    BOOST_TEST(!corrupt.Feed(deflater.Message("{}"), ec));
    BOOST_TEST(ec.failed());
}

BOOST_AUTO_TEST_SUITE_END()
