// The SDK's IPC frame codec and socket search (src/ipc): round trips at every split, the limits, and
// the folders in the platform's order.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <string>

#include "ipc/desktop_client.hpp"
#include "ipc/frame.hpp"

using namespace platformpp::ipc;

namespace {

std::vector<Frame> FeedAll(FrameDecoder& decoder, const std::string& bytes) {
    return decoder.Feed(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

std::string Header(uint32_t opcode, uint32_t length) {
    std::string out;
    for (uint32_t value : {opcode, length}) {
        for (int shift = 0; shift < 32; shift += 8) out.push_back(static_cast<char>((value >> shift) & 0xFF));
    }
    return out;
}

struct Env {
    std::string name;
    std::optional<std::string> before;
    Env(std::string n, const char* value) : name(std::move(n)) {
        if (const char* old = std::getenv(name.c_str())) before = old;
        if (value) ::setenv(name.c_str(), value, 1); else ::unsetenv(name.c_str());
    }
    ~Env() { if (before) ::setenv(name.c_str(), before->c_str(), 1); else ::unsetenv(name.c_str()); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(ipc_frames)

BOOST_AUTO_TEST_CASE(encodes_little_endian_header_then_payload) {
    const std::string frame = EncodeFrame(Opcode::Handshake, R"({"v":1})");
    BOOST_TEST(frame == Header(0, 7) + R"({"v":1})");
}

BOOST_AUTO_TEST_CASE(decodes_at_every_split) {
    const std::string stream = EncodeFrame(Opcode::Frame, R"({"cmd":"A"})") + EncodeFrame(Opcode::Ping, "{}") +
                               EncodeFrame(Opcode::Close, R"({"code":1000})");
    for (std::size_t split = 0; split <= stream.size(); ++split) {
        FrameDecoder decoder;
        auto frames = FeedAll(decoder, stream.substr(0, split));
        auto rest = FeedAll(decoder, stream.substr(split));
        frames.insert(frames.end(), rest.begin(), rest.end());
        BOOST_REQUIRE_EQUAL(frames.size(), 3u);
        BOOST_TEST(frames[0].payload == R"({"cmd":"A"})");
        BOOST_TEST((frames[1].opcode == Opcode::Ping));
        BOOST_TEST((frames[2].opcode == Opcode::Close));
        BOOST_TEST(decoder.Pending() == 0u);
    }
}

BOOST_AUTO_TEST_CASE(refuses_a_length_over_the_limit_on_the_header_alone) {
    FrameDecoder decoder;
    BOOST_CHECK_THROW(FeedAll(decoder, Header(1, kMaxPayloadBytes + 1)), FrameError);
    // The decoder stays failed: the stream's framing is lost.
    BOOST_CHECK_THROW(FeedAll(decoder, EncodeFrame(Opcode::Frame, "{}")), FrameError);
    FrameDecoder exact;
    BOOST_TEST(FeedAll(exact, Header(1, kMaxPayloadBytes)).empty());  // the limit itself is allowed
}

BOOST_AUTO_TEST_CASE(refuses_unknown_opcodes_and_oversized_payloads) {
    FrameDecoder decoder;
    BOOST_CHECK_THROW(FeedAll(decoder, Header(5, 0)), FrameError);
    BOOST_CHECK_THROW(EncodeFrame(Opcode::Frame, std::string(kMaxPayloadBytes + 1, 'x')), FrameError);
}

BOOST_AUTO_TEST_CASE(socket_candidates_follow_the_platform_folder_order) {
    Env override("PLATFORMPP_IPC_PATH", nullptr), xdg("XDG_RUNTIME_DIR", "/run/user/7"), tmpdir("TMPDIR", "/tt");
    auto paths = SocketCandidates();
    BOOST_REQUIRE_EQUAL(paths.size(), 10u);
    BOOST_TEST(paths.front() == "/run/user/7/platformpp-ipc-0");
    BOOST_TEST(paths.back() == "/run/user/7/platformpp-ipc-9");
    {
        Env noXdg("XDG_RUNTIME_DIR", nullptr);
        BOOST_TEST(SocketCandidates().front() == "/tt/platformpp-ipc-0");
        Env noTmpdir("TMPDIR", nullptr), noTmp("TMP", nullptr), noTemp("TEMP", nullptr);
        BOOST_TEST(SocketCandidates().front() == "/tmp/platformpp-ipc-0");
    }
    Env custom("PLATFORMPP_IPC_PATH", "/x/y/game-ipc");
    BOOST_TEST(SocketCandidates()[3] == "/x/y/game-ipc-3");
}

BOOST_AUTO_TEST_SUITE_END()
