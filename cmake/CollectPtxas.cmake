# cmake -DOUTPUT=FILE -DOBJECTS="a.o;b.o" -P CollectPtxas.cmake
# Joins the ptxas reports cmake/capture_ptxas.sh left beside a lab program's objects into one
# file (build/labs/PROGRAM.ptxas.txt), one "# source" header per object, for the lab sheet.
set(text "")
foreach(object IN LISTS OBJECTS)
  if(EXISTS "${object}.ptxas.txt")
    file(READ "${object}.ptxas.txt" report)
    get_filename_component(name "${object}" NAME_WE)
    string(APPEND text "# ${name}\n${report}")
  endif()
endforeach()
file(WRITE "${OUTPUT}" "${text}")
