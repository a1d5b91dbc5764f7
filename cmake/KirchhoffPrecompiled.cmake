# Precompiled headers (KIRCHHOFF_PCH; default on with clang, off with GCC, see below): the heavy
# third-party headers (PETSc, MPI, Eigen, HDF5, yaml-cpp, GoogleTest, the standard library) parsed once.
# Two precompiled sets, each built once and reused (REUSE_FROM) by every target with its flags:
#   kirchhoff_pch       libraries, drivers, benchmarks, fuzz harness
#   kirchhoff_test_pch  the same + GoogleTest, for the test executables
# A target whose compile flags differ must not reuse them (GCC rejects the set with -Winvalid-pch,
# an error under -Werror; clang refuses it): the libFuzzer build instruments the libraries with
# -fsanitize=fuzzer-no-link, so it has a third set for them (kirchhoff_use_pch(<t> FUZZ)).
# Measured (user + sys of single objects, same flags, side by side): with clang (the sanitizer and
# fuzz build, -O1) a small translation unit compiles ~40% faster (kirchhoff-top.cpp 4.6 -> 2.8 s),
# a large test ~3% (test_nystrom.cpp 32.5 -> 31.5 s); with GCC 12 at -O3 the first 40 objects of
# the tree took 128.6 s with the sets against 127.2 s without (loading the 156 MB set eats what
# parsing saves), plus 19 s to build the two sets: on by default for clang only.
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  set(_kirchhoff_pch_default ON)
else()
  set(_kirchhoff_pch_default OFF)
endif()
option(KIRCHHOFF_PCH "Precompile the third-party headers once per build" ${_kirchhoff_pch_default})

set(KIRCHHOFF_PCH_HEADERS
    <mpi.h> <petscsys.h> <petscksp.h> <petscsnes.h> <hdf5.h> <Eigen/Dense> <yaml-cpp/yaml.h>
    <algorithm> <array> <cmath> <complex> <cstdint> <cstdio> <cstdlib> <cstring> <filesystem>
    <fstream> <functional> <limits> <map> <memory> <optional> <random> <sstream> <stdexcept>
    <string> <utility> <vector>)

# _kirchhoff_pch_target(<name> <headers...> LIBS <libraries...>): an object library that only
# holds the precompiled header, compiled with the same flags as the targets that reuse it.
function(_kirchhoff_pch_target name)
  cmake_parse_arguments(ARG "" "" "HEADERS;LIBS;OPTIONS" ${ARGN})
  add_library(${name} OBJECT ${CMAKE_SOURCE_DIR}/cmake/Precompiled.cpp)
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} kirchhoff_warnings)
  target_compile_options(${name} PRIVATE ${ARG_OPTIONS})
  target_precompile_headers(${name} PRIVATE ${ARG_HEADERS})
endfunction()

if(KIRCHHOFF_PCH)
  _kirchhoff_pch_target(kirchhoff_pch HEADERS ${KIRCHHOFF_PCH_HEADERS} LIBS kirchhoff_deps)
  if(KIRCHHOFF_FUZZ)
    _kirchhoff_pch_target(kirchhoff_fuzz_pch HEADERS ${KIRCHHOFF_PCH_HEADERS} LIBS kirchhoff_deps
                          OPTIONS -fsanitize=fuzzer-no-link)
  endif()
endif()

# The GoogleTest set: made on first use (tests/CMakeLists.txt finds GTest).
function(_kirchhoff_test_pch)
  if(NOT TARGET kirchhoff_test_pch)
    _kirchhoff_pch_target(kirchhoff_test_pch HEADERS ${KIRCHHOFF_PCH_HEADERS} <gtest/gtest.h>
                          LIBS kirchhoff_deps GTest::gtest)
  endif()
endfunction()

# kirchhoff_use_pch(<target> [TEST | FUZZ]): <target> reuses a precompiled set (no-op with
# -DKIRCHHOFF_PCH=OFF).
function(kirchhoff_use_pch target)
  if(NOT KIRCHHOFF_PCH)
    return()
  endif()
  cmake_parse_arguments(ARG "TEST;FUZZ" "" "" ${ARGN})
  if(ARG_TEST)
    _kirchhoff_test_pch()
    set(from kirchhoff_test_pch)
  elseif(ARG_FUZZ)
    set(from kirchhoff_fuzz_pch)
  else()
    set(from kirchhoff_pch)
  endif()
  set_target_properties(${target} PROPERTIES PRECOMPILE_HEADERS_REUSE_FROM ${from})
  add_dependencies(${target} ${from})
endfunction()
