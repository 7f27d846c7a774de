# The media engine's system libraries (cpp/src/voice/): libopus for the Opus codec and libpulse for the
# PulseAudio/PipeWire device backend. Both are plain Debian packages; the core links them by name so an
# installed platformpp package needs nothing but the same packages on the consumer's machine.
find_path(PLATFORMPP_OPUS_INCLUDE_DIR opus.h PATH_SUFFIXES opus)
find_library(PLATFORMPP_OPUS_LIBRARY opus)
if(NOT PLATFORMPP_OPUS_INCLUDE_DIR OR NOT PLATFORMPP_OPUS_LIBRARY)
  message(FATAL_ERROR
    "platformpp needs libopus (headers and library) for voice calls (Opus, 48 kHz). "
    "On Debian or Ubuntu: `apt-get install libopus-dev`.")
endif()

find_path(PLATFORMPP_PULSE_INCLUDE_DIR pulse/pulseaudio.h)
find_library(PLATFORMPP_PULSE_LIBRARY pulse)
find_library(PLATFORMPP_PULSE_SIMPLE_LIBRARY pulse-simple)
if(NOT PLATFORMPP_PULSE_INCLUDE_DIR OR NOT PLATFORMPP_PULSE_LIBRARY OR NOT PLATFORMPP_PULSE_SIMPLE_LIBRARY)
  message(FATAL_ERROR
    "platformpp needs libpulse (headers and library) for its audio device backend (PulseAudio or "
    "PipeWire's pulse server; without a running server the null backend is used). "
    "On Debian or Ubuntu: `apt-get install libpulse-dev`.")
endif()

# libspeexdsp: echo cancellation, noise suppression and gain control of the captured voice.
find_path(PLATFORMPP_SPEEXDSP_INCLUDE_DIR speex/speex_preprocess.h)
find_library(PLATFORMPP_SPEEXDSP_LIBRARY speexdsp)
if(NOT PLATFORMPP_SPEEXDSP_INCLUDE_DIR OR NOT PLATFORMPP_SPEEXDSP_LIBRARY)
  message(FATAL_ERROR
    "platformpp needs libspeexdsp (headers and library) for echo cancellation, noise suppression and "
    "automatic gain control of voice. On Debian or Ubuntu: `apt-get install libspeexdsp-dev`.")
endif()

# Link names for target_link_libraries: the found files while building, the bare names once installed.
set(PLATFORMPP_AUDIO_LIBRARIES
  $<BUILD_INTERFACE:${PLATFORMPP_OPUS_LIBRARY}> $<INSTALL_INTERFACE:opus>
  $<BUILD_INTERFACE:${PLATFORMPP_PULSE_SIMPLE_LIBRARY}> $<INSTALL_INTERFACE:pulse-simple>
  $<BUILD_INTERFACE:${PLATFORMPP_PULSE_LIBRARY}> $<INSTALL_INTERFACE:pulse>
  $<BUILD_INTERFACE:${PLATFORMPP_SPEEXDSP_LIBRARY}> $<INSTALL_INTERFACE:speexdsp>)
set(PLATFORMPP_AUDIO_INCLUDE_DIRS ${PLATFORMPP_OPUS_INCLUDE_DIR} ${PLATFORMPP_PULSE_INCLUDE_DIR}
  ${PLATFORMPP_SPEEXDSP_INCLUDE_DIR})
