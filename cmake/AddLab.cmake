# labbook_add_lab(NAME SOURCES ...): one lab program. Labs link only the CUDA runtime,
# NVTX and labs/common: no labbook code, so they run on their own.
function(labbook_add_lab name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE labbook_lab_common)
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
  labbook_warnings(${name})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/labs")
endfunction()
