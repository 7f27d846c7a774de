#include "ipc/frame.hpp"

namespace platformpp::ipc {

namespace {

void PutU32(std::string& out, uint32_t value) {
    for (int shift = 0; shift < 32; shift += 8) out.push_back(static_cast<char>((value >> shift) & 0xFF));
}

uint32_t GetU32(const std::string& in, std::size_t at) {
    uint32_t value = 0;
    for (int i = 3; i >= 0; --i) value = (value << 8) | static_cast<uint8_t>(in[at + static_cast<std::size_t>(i)]);
    return value;
}

}  // namespace

std::string EncodeFrame(Opcode opcode, const std::string& payload) {
    if (payload.size() > kMaxPayloadBytes) {
        throw FrameError("payload of " + std::to_string(payload.size()) + " bytes is over the limit of " +
                         std::to_string(kMaxPayloadBytes));
    }
    std::string out;
    out.reserve(kHeaderBytes + payload.size());
    PutU32(out, static_cast<uint32_t>(opcode));
    PutU32(out, static_cast<uint32_t>(payload.size()));
    out += payload;
    return out;
}

std::vector<Frame> FrameDecoder::Feed(const uint8_t* data, std::size_t size) {
    if (!failure_.empty()) throw FrameError(failure_);
    buffer_.append(reinterpret_cast<const char*>(data), size);
    std::vector<Frame> frames;
    std::size_t offset = 0;
    while (buffer_.size() - offset >= kHeaderBytes) {
        const uint32_t opcode = GetU32(buffer_, offset);
        const uint32_t length = GetU32(buffer_, offset + 4);
        if (opcode > static_cast<uint32_t>(Opcode::Pong)) {
            failure_ = "unknown opcode " + std::to_string(opcode);
        } else if (length > kMaxPayloadBytes) {
            failure_ = "frame length " + std::to_string(length) + " is over the limit of " +
                       std::to_string(kMaxPayloadBytes) + " bytes";
        }
        if (!failure_.empty()) {
            buffer_.clear();
            throw FrameError(failure_);
        }
        if (buffer_.size() - offset - kHeaderBytes < length) break;
        frames.push_back({static_cast<Opcode>(opcode), buffer_.substr(offset + kHeaderBytes, length)});
        offset += kHeaderBytes + length;
    }
    buffer_.erase(0, offset);
    return frames;
}

}  // namespace platformpp::ipc
