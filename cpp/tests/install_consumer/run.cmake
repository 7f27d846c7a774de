# ctest driver. Inputs: SOURCE_DIR (the consumer), WORK_DIR, and MODE:
#   install      - install the built core (BUILD_DIR) into a scratch prefix, then find_package(platformpp)
#   subdirectory - add_subdirectory(<the platformpp checkout>) (PROJECT_DIR; BOOST_DIR: Boost headers)
# then configure, build and run the consumer.
function(run_step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
if(MODE STREQUAL "subdirectory")
  run_step(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G Ninja -DPLATFORMPP_SOURCE_DIR=${PROJECT_DIR}
           -DPLATFORMPP_BOOST_INCLUDE_DIR=${BOOST_DIR})
else()
  run_step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
  run_step(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G Ninja -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
endif()
run_step(${CMAKE_COMMAND} --build ${WORK_DIR}/build --parallel 2)
run_step(${WORK_DIR}/build/consumer)
message(STATUS "${last_output}")
