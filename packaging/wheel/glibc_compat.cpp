// Linked into the portable wheel's module only (PLATFORMPP_PORTABLE_WHEEL): what keeps the statically
// linked libstdc++ from asking for a newer glibc than the rest of the module does (manylinux_2_34).
//
// GCC 12's libstdc++.a seeds std::random_device (Boost.Beast seeds its WebSocket mask generator with it)
// from arc4random, which glibc has only since 2.36. This definition, hidden inside the module, answers
// that reference with the getrandom system call (glibc 2.25) instead.
#include <sys/random.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>

extern "C" __attribute__((visibility("hidden"), used)) std::uint32_t arc4random() noexcept {
    std::uint32_t value = 0;
    auto* bytes = reinterpret_cast<unsigned char*>(&value);
    std::size_t filled = 0;
    while (filled < sizeof value) {
        const ssize_t got = getrandom(bytes + filled, sizeof value - filled, 0);
        if (got > 0) filled += static_cast<std::size_t>(got);
        else if (errno != EINTR) __builtin_trap();  // no entropy source at all: nothing safe to return
    }
    return value;
}
