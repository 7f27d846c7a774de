// libFuzzer target: the SDK's decoder of the desktop client's IPC frames (src/ipc/frame.cpp). Any
// bytes, fed in two chunks at a split the input chooses (its first byte), either decode or raise
// FrameError; without an error the decoded frames re-encode to exactly the bytes they came from, and
// the decoder never holds more than one frame.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "ipc/frame.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using platformpp::ipc::EncodeFrame;
    using platformpp::ipc::Frame;
    using platformpp::ipc::FrameDecoder;
    using platformpp::ipc::FrameError;
    if (size == 0) return 0;
    const uint8_t* stream = data + 1;
    const std::size_t length = size - 1;
    const std::size_t split = length == 0 ? 0 : data[0] % (length + 1);
    FrameDecoder decoder;
    std::string reencoded;
    try {
        for (const Frame& frame : decoder.Feed(stream, split)) reencoded += EncodeFrame(frame.opcode, frame.payload);
        for (const Frame& frame : decoder.Feed(stream + split, length - split)) {
            reencoded += EncodeFrame(frame.opcode, frame.payload);
        }
    } catch (const FrameError&) {
        return 0;
    }
    if (decoder.Pending() > platformpp::ipc::kMaxFrameBytes) std::abort();
    if (reencoded.size() + decoder.Pending() != length ||
        reencoded != std::string(reinterpret_cast<const char*>(stream), reencoded.size())) {
        std::abort();
    }
    return 0;
}
