// How many heap allocations (operator new, and OpenSSL's allocator) the e2ee test binary has made so
// far; dave_alloc_test.cpp installs the counting allocators. Compare two readings around a loop.
#pragma once

#include <cstddef>

namespace e2ee_test {

std::size_t allocations_so_far();
// False when OpenSSL had allocated before the counting allocator could be installed.
bool openssl_allocations_counted();

}  // namespace e2ee_test
