# The media engine's system libraries (cpp/src/voice/): libopus for the Opus codec, libspeexdsp for echo
# cancellation, noise suppression and gain control, and libpulse's headers for the PulseAudio/PipeWire
# device backend. libpulse itself is never linked: the backend loads it at run time (dlopen), so the SDK
# works on a machine without it (null audio backend). libopus and libspeexdsp are linked as shared
# libraries, also in the portable wheel: Debian's static archives of both are not position-independent
# (they cannot go into a shared object), so auditwheel copies the two shared libraries into the wheel
# (platformpp.libs/), where the module finds them through its RPATH; they need nothing but libc and libm.
find_path(PLATFORMPP_OPUS_INCLUDE_DIR opus.h PATH_SUFFIXES opus)
find_library(PLATFORMPP_OPUS_LIBRARY opus)
if(NOT PLATFORMPP_OPUS_INCLUDE_DIR OR NOT PLATFORMPP_OPUS_LIBRARY)
  message(FATAL_ERROR
    "platformpp needs libopus (headers and library) for voice calls (Opus, 48 kHz). "
    "On Debian or Ubuntu: `apt-get install libopus-dev`.")
endif()

find_path(PLATFORMPP_PULSE_INCLUDE_DIR pulse/pulseaudio.h)
if(NOT PLATFORMPP_PULSE_INCLUDE_DIR)
  message(FATAL_ERROR
    "platformpp needs libpulse's headers for its audio device backend (PulseAudio or PipeWire's pulse "
    "server; loaded at run time, and without it or a running server the null backend is used). "
    "On Debian or Ubuntu: `apt-get install libpulse-dev`.")
endif()
# The C++ tests that play and record through a private PulseAudio server link libpulse themselves.
find_library(PLATFORMPP_PULSE_LIBRARY pulse)
find_library(PLATFORMPP_PULSE_SIMPLE_LIBRARY pulse-simple)

find_path(PLATFORMPP_SPEEXDSP_INCLUDE_DIR speex/speex_preprocess.h)
find_library(PLATFORMPP_SPEEXDSP_LIBRARY speexdsp)
if(NOT PLATFORMPP_SPEEXDSP_INCLUDE_DIR OR NOT PLATFORMPP_SPEEXDSP_LIBRARY)
  message(FATAL_ERROR
    "platformpp needs libspeexdsp (headers and library) for echo cancellation, noise suppression and "
    "automatic gain control of voice. On Debian or Ubuntu: `apt-get install libspeexdsp-dev`.")
endif()

# Link names for target_link_libraries: the found files while building, the bare names once installed
# (dl: dlopen of libpulse, part of libc since glibc 2.34).
set(PLATFORMPP_AUDIO_LIBRARIES
  $<BUILD_INTERFACE:${PLATFORMPP_OPUS_LIBRARY}> $<INSTALL_INTERFACE:opus>
  $<BUILD_INTERFACE:${PLATFORMPP_SPEEXDSP_LIBRARY}> $<INSTALL_INTERFACE:speexdsp>
  ${CMAKE_DL_LIBS})
set(PLATFORMPP_AUDIO_INCLUDE_DIRS ${PLATFORMPP_OPUS_INCLUDE_DIR} ${PLATFORMPP_PULSE_INCLUDE_DIR}
  ${PLATFORMPP_SPEEXDSP_INCLUDE_DIR})
