find_package(OpenSSL 3 QUIET)
if(NOT OpenSSL_FOUND)
  message(FATAL_ERROR
    "platformpp needs OpenSSL 3 development files (headers and libraries) for TLS, SHA-256 and its "
    "random numbers. On Debian or Ubuntu: `apt-get install libssl-dev`.")
endif()
