# What makes the first build cheaper (issue 59): C++ line tables instead of full debug
# information, precompiled headers, and ccache where it is installed.

# -g1 keeps file and line for backtraces and perf at a fifth less compile time than -g;
# a flags value of one's own (cmake -DCMAKE_CXX_FLAGS_RELWITHDEBINFO=...) is left alone.
if(CMAKE_CXX_FLAGS_RELWITHDEBINFO STREQUAL "-O2 -g -DNDEBUG")
  set(CMAKE_CXX_FLAGS_RELWITHDEBINFO "-O2 -g1 -DNDEBUG" CACHE STRING "C++ flags of RelWithDebInfo builds" FORCE)
endif()

# ccache, when present, for C++ and for nvcc; the lab programs chain it behind their own
# launcher (cmake/AddLab.cmake). Its sloppiness lets it cache units built with a precompiled header.
find_program(LABBOOK_CCACHE ccache)
set(LABBOOK_COMPILER_LAUNCHER "")
if(LABBOOK_CCACHE)
  set(LABBOOK_COMPILER_LAUNCHER "${CMAKE_COMMAND};-E;env;CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime;${LABBOOK_CCACHE}")
  if(NOT CMAKE_CXX_COMPILER_LAUNCHER)
    set(CMAKE_CXX_COMPILER_LAUNCHER ${LABBOOK_COMPILER_LAUNCHER})
  endif()
  if(NOT CMAKE_CUDA_COMPILER_LAUNCHER)
    set(CMAKE_CUDA_COMPILER_LAUNCHER ${LABBOOK_COMPILER_LAUNCHER})
  endif()
  message(STATUS "labbook: compiling through ${LABBOOK_CCACHE}")
endif()

option(LABBOOK_PRECOMPILED_HEADERS "Precompile the headers most of labbook's C++ units include" ON)

# The standard and JSON/TOML headers that most units of labbook's libraries include: parsing
# them was a third of a unit's compile time.
set(LABBOOK_COMMON_HEADERS
  <algorithm> <cstdint> <filesystem> <functional> <map> <memory> <optional> <set> <sstream>
  <string> <string_view> <unordered_map> <vector> <nlohmann/json.hpp> <toml++/toml.h>)

# The common headers compiled once, in a target of their own: a library's own definitions
# (simdjson's in labbook_model) would make GCC refuse its header in the others.
if(LABBOOK_PRECOMPILED_HEADERS)
  add_library(labbook_precompiled_headers OBJECT "${CMAKE_CURRENT_LIST_DIR}/precompiled_headers.cpp")
  target_link_libraries(labbook_precompiled_headers PRIVATE nlohmann_json::nlohmann_json tomlplusplus::tomlplusplus)
  labbook_warnings(labbook_precompiled_headers)
  target_precompile_headers(labbook_precompiled_headers PRIVATE ${LABBOOK_COMMON_HEADERS})
endif()

# labbook_precompiled_headers(TARGET [HEADERS H...]): TARGET's units (C++ only) start with the
# common headers: the shared compiled ones, or with H... a compilation of TARGET's own.
function(labbook_precompiled_headers target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "HEADERS")
  if(NOT LABBOOK_PRECOMPILED_HEADERS)
    return()
  endif()
  if(ARG_HEADERS)
    target_precompile_headers(${target} PRIVATE ${LABBOOK_COMMON_HEADERS} ${ARG_HEADERS})
  else()
    target_precompile_headers(${target} REUSE_FROM labbook_precompiled_headers)
  endif()
endfunction()
