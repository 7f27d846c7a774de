// Encoded frames from the audio thread to the network thread without heap allocation per frame (the
// audio thread must not allocate): a single-producer single-consumer ring of fixed slots, drained by a
// handler posted to the io_context whose memory is one reusable block (HandlerSlot) instead of asio's
// default operator new (asio recycles handler memory only on threads that run the io_context).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>

namespace platformpp::voice {

// One block for one handler at a time; a second one at the same time gets operator new.
class HandlerSlot {
public:
    void* Allocate(std::size_t size) {
        if (size <= sizeof storage_ && !used_.exchange(true, std::memory_order_acquire)) return storage_;
        return ::operator new(size);
    }
    void Deallocate(void* p) noexcept {
        if (p == storage_) used_.store(false, std::memory_order_release);
        else ::operator delete(p);
    }

private:
    alignas(std::max_align_t) unsigned char storage_[256];
    std::atomic<bool> used_{false};
};

// The allocator a handler names (allocator_type, get_allocator) so asio takes its memory from the slot.
// It shares the slot: asio frees the memory after destroying the handler, which may hold the slot's owner.
template <typename T>
struct HandlerSlotAllocator {
    using value_type = T;
    std::shared_ptr<HandlerSlot> slot;

    explicit HandlerSlotAllocator(std::shared_ptr<HandlerSlot> s) noexcept : slot(std::move(s)) {}
    template <typename U>
    HandlerSlotAllocator(const HandlerSlotAllocator<U>& other) noexcept : slot(other.slot) {}
    T* allocate(std::size_t n) { return static_cast<T*>(slot->Allocate(sizeof(T) * n)); }
    void deallocate(T* p, std::size_t) noexcept { slot->Deallocate(p); }
    template <typename U>
    bool operator==(const HandlerSlotAllocator<U>& other) const noexcept { return slot == other.slot; }
    template <typename U>
    bool operator!=(const HandlerSlotAllocator<U>& other) const noexcept { return slot != other.slot; }
};

// Single producer (the audio thread), single consumer (the network thread).
class FrameRing {
public:
    static constexpr std::size_t kSlots = 8;        // 160 ms of 20 ms frames: the network thread is far behind
    static constexpr std::size_t kMaxFrame = 1275;  // RFC 6716's largest frame

    // Producer. False (nothing queued) when the ring is full or the frame too large.
    bool Push(const std::uint8_t* data, std::size_t size) {
        const std::size_t head = head_.load(std::memory_order_relaxed);
        if (size > kMaxFrame || head - tail_.load(std::memory_order_acquire) == kSlots) return false;
        Slot& slot = slots_[head % kSlots];
        std::memcpy(slot.data.data(), data, size);
        slot.size = size;
        head_.store(head + 1, std::memory_order_release);
        return true;
    }
    // Consumer: fn(data, size) for each queued frame, oldest first.
    template <typename Fn>
    void Drain(Fn&& fn) {
        std::size_t tail = tail_.load(std::memory_order_relaxed);
        while (tail != head_.load(std::memory_order_acquire)) {
            const Slot& slot = slots_[tail % kSlots];
            fn(slot.data.data(), slot.size);
            tail_.store(++tail, std::memory_order_release);
        }
    }

private:
    struct Slot {
        std::array<std::uint8_t, kMaxFrame> data;
        std::size_t size = 0;
    };
    std::array<Slot, kSlots> slots_{};
    std::atomic<std::size_t> head_{0}, tail_{0};
};

}  // namespace platformpp::voice
