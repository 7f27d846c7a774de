# Boost headers for the core's private implementation. Public headers never include Boost, so a
# game linking platformpp needs no Boost of its own.
#   1. a system Boost >= 1.81 (BoostConfig.cmake), else
#   2. the PyPI `boost-headers` package (a build requirement of the wheel), else
#   3. -DPLATFORMPP_BOOST_INCLUDE_DIR=/path/to/boost/include given by hand.
set(PLATFORMPP_BOOST_INCLUDE_DIR "" CACHE PATH "Boost >= 1.81 include directory (found automatically when empty)")

if(NOT PLATFORMPP_BOOST_INCLUDE_DIR)
  find_package(Boost 1.81 CONFIG QUIET)
  if(Boost_FOUND)
    set(PLATFORMPP_BOOST_INCLUDE_DIR "${Boost_INCLUDE_DIRS}" CACHE PATH "" FORCE)
  else()
    # The interpreter scikit-build-core runs under, else the first python3 on PATH (an active venv).
    if(Python_EXECUTABLE)
      set(_python "${Python_EXECUTABLE}")
    else()
      find_program(_python NAMES python3 python NO_CACHE)
    endif()
    if(_python)
      execute_process(
        COMMAND "${_python}" -c "import boost_headers; print(boost_headers.get_include())"
        OUTPUT_VARIABLE _pip_boost OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _pip_rc)
      if(_pip_rc EQUAL 0 AND EXISTS "${_pip_boost}/boost/version.hpp")
        set(PLATFORMPP_BOOST_INCLUDE_DIR "${_pip_boost}" CACHE PATH "" FORCE)
      endif()
    endif()
  endif()
endif()

if(NOT EXISTS "${PLATFORMPP_BOOST_INCLUDE_DIR}/boost/version.hpp")
  message(FATAL_ERROR
    "platformpp needs Boost >= 1.81 headers. Install them with `pip install boost-headers` (into the "
    "Python that CMake finds), or libboost-dev >= 1.81, or pass -DPLATFORMPP_BOOST_INCLUDE_DIR=<dir>.")
endif()
file(STRINGS "${PLATFORMPP_BOOST_INCLUDE_DIR}/boost/version.hpp" _boost_version_line REGEX "#define BOOST_VERSION ")
string(REGEX MATCH "[0-9]+" _boost_version "${_boost_version_line}")
if(_boost_version LESS 108100)
  message(FATAL_ERROR "platformpp needs Boost >= 1.81; ${PLATFORMPP_BOOST_INCLUDE_DIR} has ${_boost_version}.")
endif()
message(STATUS "platformpp: Boost headers ${_boost_version} from ${PLATFORMPP_BOOST_INCLUDE_DIR}")
