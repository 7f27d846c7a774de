# OpenSSL 3: TLS, SHA-256 and random numbers. A normal build links the system's shared libraries; the
# portable wheel (PLATFORMPP_PORTABLE_WHEEL) links the static archives (Debian's libssl-dev ships them,
# position-independent) so that the wheel needs no OpenSSL of the machine it is installed on.
if(PLATFORMPP_PORTABLE_WHEEL)
  set(OPENSSL_USE_STATIC_LIBS TRUE)
endif()
find_package(OpenSSL 3 QUIET)
if(NOT OpenSSL_FOUND)
  message(FATAL_ERROR
    "platformpp needs OpenSSL 3 development files (headers and libraries) for TLS, SHA-256 and its "
    "random numbers. On Debian or Ubuntu: `apt-get install libssl-dev`.")
endif()
