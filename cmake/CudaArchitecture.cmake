# CMAKE_CUDA_ARCHITECTURES: "native" when a GPU is visible, else 90 (the H100 the
# recordings come from). A value given on the command line always wins.
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  set(_labbook_gpu_visible FALSE)
  find_program(_labbook_nvidia_smi nvidia-smi)
  if(_labbook_nvidia_smi)
    execute_process(COMMAND "${_labbook_nvidia_smi}" -L
                    RESULT_VARIABLE _labbook_smi_rc OUTPUT_VARIABLE _labbook_smi_out ERROR_QUIET)
    if(_labbook_smi_rc EQUAL 0 AND _labbook_smi_out MATCHES "GPU [0-9]+:")
      set(_labbook_gpu_visible TRUE)
    endif()
  endif()
  if(_labbook_gpu_visible)
    set(CMAKE_CUDA_ARCHITECTURES native CACHE STRING "CUDA architectures")
  else()
    set(CMAKE_CUDA_ARCHITECTURES 90 CACHE STRING "CUDA architectures")
  endif()
  message(STATUS "labbook: CMAKE_CUDA_ARCHITECTURES=${CMAKE_CUDA_ARCHITECTURES}")
endif()
