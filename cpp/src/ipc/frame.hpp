#pragma once
// Frames of the desktop client's RPC over IPC: opcode (u32 little-endian), length (u32 little-endian),
// then `length` bytes of UTF-8 JSON. Pure byte handling, no I/O and no JSON, so that the decoder can be
// fuzzed on its own (cpp/fuzz/ipc_frame_fuzz.cpp). Private to the core.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace platformpp::ipc {

enum class Opcode : uint32_t {
    Handshake = 0,
    Frame = 1,
    Close = 2,
    Ping = 3,
    Pong = 4,
};

constexpr std::size_t kHeaderBytes = 8;
// One frame (header + JSON) is at most 64 KiB, the bound of the platform's RPC frame buffer.
constexpr std::size_t kMaxFrameBytes = 64 * 1024;
constexpr std::size_t kMaxPayloadBytes = kMaxFrameBytes - kHeaderBytes;

// The byte stream cannot be read as frames: the connection must be dropped.
class FrameError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Frame {
    Opcode opcode;
    std::string payload;
};

// The frame's bytes; FrameError when the payload is over kMaxPayloadBytes.
std::string EncodeFrame(Opcode opcode, const std::string& payload);

// Feed bytes as they arrive and take complete frames out. The header is checked as soon as its 8 bytes
// are in (unknown opcode, length over the limit: FrameError), so no more than one frame is ever held.
// After a FrameError the decoder stays failed: every later Feed throws again.
class FrameDecoder {
public:
    std::vector<Frame> Feed(const uint8_t* data, std::size_t size);
    std::size_t Pending() const noexcept { return buffer_.size(); }

private:
    std::string buffer_;
    std::string failure_;
};

}  // namespace platformpp::ipc
