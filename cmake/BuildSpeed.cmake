# What makes the first build cheaper: C++ line tables instead of full debug information, the
# libraries compiled in batches of files, and ccache where it is installed.

# -g1 keeps file and line for backtraces and perf at a fifth less compile time than -g;
# a flags value of one's own (cmake -DCMAKE_CXX_FLAGS_RELWITHDEBINFO=...) is left alone.
if(CMAKE_CXX_FLAGS_RELWITHDEBINFO STREQUAL "-O2 -g -DNDEBUG")
  set(CMAKE_CXX_FLAGS_RELWITHDEBINFO "-O2 -g1 -DNDEBUG" CACHE STRING "C++ flags of RelWithDebInfo builds" FORCE)
endif()

# ccache, when present, for C++ and for nvcc; the lab programs chain it behind their own
# launcher (cmake/AddLab.cmake).
find_program(LABBOOK_CCACHE ccache)
set(LABBOOK_COMPILER_LAUNCHER "")
if(LABBOOK_CCACHE)
  set(LABBOOK_COMPILER_LAUNCHER "${LABBOOK_CCACHE}")
  if(NOT CMAKE_CXX_COMPILER_LAUNCHER)
    set(CMAKE_CXX_COMPILER_LAUNCHER ${LABBOOK_COMPILER_LAUNCHER})
  endif()
  if(NOT CMAKE_CUDA_COMPILER_LAUNCHER)
    set(CMAKE_CUDA_COMPILER_LAUNCHER ${LABBOOK_COMPILER_LAUNCHER})
  endif()
  message(STATUS "labbook: compiling through ${LABBOOK_CCACHE}")
endif()

# A unity build compiles a library's C++ files sixteen to a unit, so that the standard
# library's, nlohmann-json's and CUPTI's headers are parsed, and their templates instantiated,
# once a batch rather than once a file. -DLABBOOK_UNITY_BUILD=OFF compiles an edited file
# alone.
option(LABBOOK_UNITY_BUILD "Compile labbook's C++ libraries in batches of files (a faster first build)" ON)
function(labbook_unity_build target)
  set_target_properties(${target} PROPERTIES UNITY_BUILD ${LABBOOK_UNITY_BUILD} UNITY_BUILD_BATCH_SIZE 16)
endfunction()

# The executables' own files parse options and print; -O2 only makes them slower to compile.
function(labbook_command_line target)
  target_compile_options(${target} PRIVATE $<$<CONFIG:Release,RelWithDebInfo>:-O1>)
endfunction()
