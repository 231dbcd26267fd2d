# Every third-party piece labbook needs, found once. Missing Debian packages are
# reported together with the one apt-get line that installs them.
find_package(CUDAToolkit 13 REQUIRED)
find_package(Threads REQUIRED)

set(_labbook_missing "")

find_package(nlohmann_json 3 QUIET)
if(NOT nlohmann_json_FOUND)
  list(APPEND _labbook_missing nlohmann-json3-dev)
endif()
find_package(tomlplusplus QUIET)
if(NOT tomlplusplus_FOUND)
  list(APPEND _labbook_missing libtomlplusplus-dev)
endif()
find_package(CLI11 QUIET)
if(NOT CLI11_FOUND)
  list(APPEND _labbook_missing libcli11-dev)
endif()
# simdjson: reads a measurement's record tables five times faster than nlohmann's parser (the
# report step of a 10^5-launch trace spent more time reading than the program ran).
find_package(simdjson QUIET)
if(NOT simdjson_FOUND)
  list(APPEND _labbook_missing libsimdjson-dev)
endif()

# zlib: the timeline (trace.json.gz) is twenty times smaller compressed, and Perfetto opens it so.
find_package(ZLIB QUIET)
if(NOT ZLIB_FOUND)
  list(APPEND _labbook_missing zlib1g-dev)
endif()

# cmark-gfm ships no CMake package on Debian: look for the headers and libraries.
find_path(CMARK_GFM_INCLUDE_DIR cmark-gfm.h)
find_library(CMARK_GFM_LIBRARY cmark-gfm)
find_path(CMARK_GFM_EXTENSIONS_INCLUDE_DIR cmark-gfm-core-extensions.h)
find_library(CMARK_GFM_EXTENSIONS_LIBRARY cmark-gfm-extensions)
if(NOT CMARK_GFM_INCLUDE_DIR OR NOT CMARK_GFM_LIBRARY)
  list(APPEND _labbook_missing libcmark-gfm-dev)
endif()
if(NOT CMARK_GFM_EXTENSIONS_INCLUDE_DIR OR NOT CMARK_GFM_EXTENSIONS_LIBRARY)
  list(APPEND _labbook_missing libcmark-gfm-extensions-dev)
endif()

# libseccomp: the exercise harnesses forbid student code to create files or processes with a
# seccomp filter (labs/common/syscall_filter.h); a hand-written BPF program would be easy to
# get subtly wrong across architectures and system-call variants. Found by path: its
# pkg-config file needs pkg-config, which the machines running labbook may lack.
find_path(SECCOMP_INCLUDE_DIR seccomp.h)
find_library(SECCOMP_LIBRARY seccomp)
if(NOT SECCOMP_INCLUDE_DIR OR NOT SECCOMP_LIBRARY)
  list(APPEND _labbook_missing libseccomp-dev)
endif()

if(LABBOOK_BUILD_TESTS)
  find_package(GTest QUIET)
  if(NOT GTest_FOUND)
    list(APPEND _labbook_missing libgtest-dev)
  endif()
endif()

if(_labbook_missing)
  list(JOIN _labbook_missing " " _labbook_missing_line)
  message(FATAL_ERROR
    "labbook: missing Debian packages. `make` installs them (tools/install-deps); or run\n"
    "  sudo apt-get install ${_labbook_missing_line}\n"
    "(all of labbook's: libcmark-gfm-dev libcmark-gfm-extensions-dev libtomlplusplus-dev "
    "nlohmann-json3-dev libcli11-dev libsimdjson-dev libgtest-dev libseccomp-dev zlib1g-dev)")
endif()

add_library(labbook_cmark_gfm INTERFACE)
target_include_directories(labbook_cmark_gfm INTERFACE
  "${CMARK_GFM_INCLUDE_DIR}" "${CMARK_GFM_EXTENSIONS_INCLUDE_DIR}")
target_link_libraries(labbook_cmark_gfm INTERFACE
  "${CMARK_GFM_EXTENSIONS_LIBRARY}" "${CMARK_GFM_LIBRARY}")

add_library(labbook_seccomp INTERFACE)
target_include_directories(labbook_seccomp INTERFACE "${SECCOMP_INCLUDE_DIR}")
target_link_libraries(labbook_seccomp INTERFACE "${SECCOMP_LIBRARY}")
