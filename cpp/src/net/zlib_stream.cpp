#include "net/zlib_stream.hpp"

#include <boost/beast/zlib/error.hpp>

#include <array>

namespace platformpp::net {
namespace zlib = boost::beast::zlib;

namespace {
constexpr std::string_view kFlushSuffix("\x00\x00\xff\xff", 4);

bool EndsWithSuffix(std::string_view data) {
    return data.size() >= kFlushSuffix.size() && data.substr(data.size() - kFlushSuffix.size()) == kFlushSuffix;
}

// RFC 1950: deflate (CM 8) with a window of at most 32 KiB, no preset dictionary, valid check bits.
bool ValidZlibHeader(unsigned char cmf, unsigned char flg) {
    return (cmf & 0x0f) == 8 && (cmf >> 4) <= 7 && (flg & 0x20) == 0 && ((cmf << 8) | flg) % 31 == 0;
}
}  // namespace

std::optional<std::string> ZlibStreamInflater::Feed(std::string_view frame, boost::system::error_code& ec) {
    ec = {};
    if (failed_) {
        ec = zlib::error::stream_error;
        return std::nullopt;
    }
    if (header_.size() < 2) {
        const auto take = std::min(frame.size(), 2 - header_.size());
        header_.append(frame.substr(0, take));
        frame.remove_prefix(take);
        if (header_.size() == 2 && !ValidZlibHeader(static_cast<unsigned char>(header_[0]),
                                                    static_cast<unsigned char>(header_[1]))) {
            failed_ = true;
            ec = zlib::error::stream_error;
            return std::nullopt;
        }
    }
    pending_.append(frame);
    if (!EndsWithSuffix(pending_)) return std::nullopt;

    std::string message;
    std::array<char, 16 * 1024> chunk;
    zlib::z_params zs;
    zs.next_in = pending_.data();
    zs.avail_in = pending_.size();
    for (;;) {
        zs.next_out = chunk.data();
        zs.avail_out = chunk.size();
        inflater_.write(zs, zlib::Flush::sync, ec);
        message.append(chunk.data(), chunk.size() - zs.avail_out);
        // need_buffers: no progress possible, which after a sync flush means all input was used.
        if (ec == zlib::error::need_buffers) {
            ec = {};
            break;
        }
        if (ec) break;
        if (zs.avail_in == 0 && zs.avail_out != 0) break;
    }
    if (!ec && zs.avail_in != 0) ec = zlib::error::stream_error;  // e.g. the stream ended early
    pending_.clear();
    if (ec) {
        failed_ = true;
        return std::nullopt;
    }
    return message;
}

}  // namespace platformpp::net
