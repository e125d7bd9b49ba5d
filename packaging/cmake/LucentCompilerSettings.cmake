# @brief Warnings, ccache and output folders shared by every Lucent target.
find_program(LUCENT_CCACHE ccache)
if(LUCENT_CCACHE)
  set(CMAKE_C_COMPILER_LAUNCHER ${LUCENT_CCACHE})
  set(CMAKE_CXX_COMPILER_LAUNCHER ${LUCENT_CCACHE})
  set(CMAKE_CUDA_COMPILER_LAUNCHER ${LUCENT_CCACHE})
endif()

set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)

# Our own code builds with these; third-party headers come in as SYSTEM so their warnings stay theirs.
add_library(lucent_warnings INTERFACE)
target_compile_options(lucent_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wno-missing-field-initializers>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)

# -DLUCENT_SANITIZE=address,undefined instruments our own C++ code (libraries, tests, CLI) with
# those sanitizers; third-party libraries stay as they are. Any report aborts the run, so a test
# that triggers one fails instead of printing and passing. -O1 comes after the build type's -O3, so it
# wins: the sanitizers' documentation advises it for usable stack traces, and CI compiles a sanitizer
# build twice (address, thread), where -O3's time buys nothing.
set(LUCENT_SANITIZE "" CACHE STRING "Sanitizers for Lucent's own targets (e.g. address,undefined); empty: none")
if(LUCENT_SANITIZE)
  message(STATUS "Lucent: building with -fsanitize=${LUCENT_SANITIZE}")
  target_compile_options(lucent_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-O1 -fsanitize=${LUCENT_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer>)
  target_link_options(lucent_warnings INTERFACE -fsanitize=${LUCENT_SANITIZE})
endif()
