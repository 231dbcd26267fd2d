# `cmake --install build --prefix P`, and the .deb (`cd build && cpack -G DEB`): an instructor
# installs labbook once for a course's machines.
#
#   P/bin/labbook, P/bin/labbook-grade (which `labbook grade` runs)
#   P/lib/labbook/libcupti-collector.so      P/lib/labbook/labs/lab4_global_memory ...
#   P/share/labbook/labs/NN_name/{lab.toml,recorded/,exercises/}, labs/sources.toml, glossary.toml and peaks.toml,
#     labs/common/, kernels/*.h *.cuh, grading/allowed_symbols.toml   (what `labbook grade`
#     compiles a harness with), laid out as in the source tree
#
# The installed labbook finds them relative to itself (cli/install_layout.cpp). The CUDA
# toolkit (nvcc, CUPTI, the runtime) is not installed: labbook uses it where it was built. The
# collector keeps its run-time path to CUPTI; the labs' programs find the CUDA runtime as the
# build's do (the toolkit's ld.so.conf entry).
install(TARGETS labbook labbook-grade RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(TARGETS labbook_collector LIBRARY DESTINATION "${LABBOOK_INSTALL_LIBDIR}")
set_target_properties(labbook labbook-grade labbook_collector PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)

get_property(labbook_labs GLOBAL PROPERTY LABBOOK_LABS)
foreach(lab IN LISTS labbook_labs)
  string(REPLACE "|" ";" lab "${lab}")
  list(GET lab 0 folder)
  list(GET lab 1 program)
  get_filename_component(name "${folder}" NAME)
  install(TARGETS ${program} RUNTIME DESTINATION "${LABBOOK_INSTALL_LIBDIR}/labs")
  install(FILES "${folder}/lab.toml" DESTINATION "${LABBOOK_INSTALL_DATADIR}/labs/${name}")
  foreach(part recorded exercises)
    if(IS_DIRECTORY "${folder}/${part}")
      install(DIRECTORY "${folder}/${part}" DESTINATION "${LABBOOK_INSTALL_DATADIR}/labs/${name}")
    endif()
  endforeach()
endforeach()
install(FILES "${PROJECT_SOURCE_DIR}/labs/sources.toml" "${PROJECT_SOURCE_DIR}/labs/glossary.toml"
              "${PROJECT_SOURCE_DIR}/labs/peaks.toml"
        DESTINATION "${LABBOOK_INSTALL_DATADIR}/labs")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/labs/common" DESTINATION "${LABBOOK_INSTALL_DATADIR}/labs")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/kernels/" DESTINATION "${LABBOOK_INSTALL_DATADIR}/kernels"
        FILES_MATCHING PATTERN "*.h" PATTERN "*.cuh")
install(FILES "${PROJECT_SOURCE_DIR}/grading/allowed_symbols.toml" DESTINATION "${LABBOOK_INSTALL_DATADIR}/grading")

# The .deb. Its dependencies are the Debian 12 runtime packages of what labbook links and runs
# (bubblewrap: the sandbox of `labbook grade`), named by hand: dpkg-shlibdeps would stop at the
# CUDA toolkit's libraries, which no Debian package provides.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME labbook)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "The CUDA memory hierarchy as lab work, measured with CUPTI")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# The Maintainer is whoever builds the package, named as Debian's tools name them (DEBFULLNAME
# and DEBEMAIL), else by git's user.name and user.email; a package with no name is refused.
set(_maintainer_name "$ENV{DEBFULLNAME}")
set(_maintainer_email "$ENV{DEBEMAIL}")
find_program(GIT_EXECUTABLE git)
if(GIT_EXECUTABLE AND (NOT _maintainer_name OR NOT _maintainer_email))
  execute_process(COMMAND ${GIT_EXECUTABLE} config user.name OUTPUT_VARIABLE _git_name OUTPUT_STRIP_TRAILING_WHITESPACE
                  WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}" ERROR_QUIET)
  execute_process(COMMAND ${GIT_EXECUTABLE} config user.email OUTPUT_VARIABLE _git_email OUTPUT_STRIP_TRAILING_WHITESPACE
                  WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}" ERROR_QUIET)
  if(NOT _maintainer_name)
    set(_maintainer_name "${_git_name}")
  endif()
  if(NOT _maintainer_email)
    set(_maintainer_email "${_git_email}")
  endif()
endif()
set(_maintainer "")
if(_maintainer_name AND _maintainer_email)
  set(_maintainer "${_maintainer_name} <${_maintainer_email}>")
endif()
# A Maintainer given at configure time wins; otherwise it is worked out again at each configure.
set(LABBOOK_DEB_MAINTAINER "" CACHE STRING "The .deb's Maintainer field, \"Name <email>\" (default: DEBFULLNAME <DEBEMAIL>, else git's)")
if(LABBOOK_DEB_MAINTAINER)
  set(_maintainer "${LABBOOK_DEB_MAINTAINER}")
endif()
if(NOT _maintainer)
  # Only `make package` needs it: configuring and building go on without.
  set(CPACK_PRE_BUILD_SCRIPTS "${CMAKE_CURRENT_LIST_DIR}/NoMaintainer.cmake")
endif()
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${_maintainer}")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libc6, libstdc++6, libcmark-gfm0.29.0.gfm.6, libcmark-gfm-extensions0.29.0.gfm.6, libtomlplusplus3, libseccomp2, bubblewrap")
include(CPack)
