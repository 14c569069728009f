# msledger's CMake package: find_package(msledger) in a project using CANN.
#
#   find_package(msledger REQUIRED)
#   msledger_instrument(TARGETS app mylib [ROOT dir] [CATALOG file...])
#
# msledger_instrument compiles the targets' C and C++ sources through
# `msrewrite --launch`: each is rewritten into the build tree
# (${CMAKE_BINARY_DIR}/msledger-instrumented) with the project headers it
# includes, and that copy is compiled, so leak reports name the original
# file:line while the source tree stays untouched. The targets (and whatever
# links a static library of them) link libmsledger. The build stays
# incremental: the build system's dependency tracking sees the original files.
# The cache option MSLEDGER_INSTRUMENT (ON) turns it off without editing the
# project. An existing compiler launcher (ccache) runs after msrewrite.
#
# Also defined: msledger::msledger (the ledger library and its headers),
# MSLEDGER_MSREWRITE and MSLEDGER_LAUNCHER (the msrewrite and msledger
# executables). Everything is found relative to this file, so the install
# prefix may be moved.
cmake_minimum_required(VERSION 3.20)

get_filename_component(_msledger_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(MSLEDGER_MSREWRITE "${_msledger_prefix}/bin/msrewrite")
set(MSLEDGER_LAUNCHER "${_msledger_prefix}/bin/msledger")
foreach(_msledger_file "${MSLEDGER_MSREWRITE}" "${MSLEDGER_LAUNCHER}"
        "${_msledger_prefix}/lib/libmsledger.so" "${_msledger_prefix}/include/msledger/track.h")
  if(NOT EXISTS "${_msledger_file}")
    set(msledger_FOUND FALSE)
    set(msledger_NOT_FOUND_MESSAGE "msledger's install in ${_msledger_prefix} lacks ${_msledger_file}")
    return()
  endif()
endforeach()

if(NOT TARGET msledger::msledger)
  # GLOBAL: targets of any directory may be instrumented from any other.
  add_library(msledger::msledger SHARED IMPORTED GLOBAL)
  set_target_properties(msledger::msledger PROPERTIES
    IMPORTED_LOCATION "${_msledger_prefix}/lib/libmsledger.so"
    INTERFACE_INCLUDE_DIRECTORIES "${_msledger_prefix}/include")
endif()

option(MSLEDGER_INSTRUMENT "Compile the targets named in msledger_instrument() from rewritten copies" ON)

function(msledger_instrument)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "ROOT" "TARGET;TARGETS;CATALOG")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "msledger_instrument: unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  set(targets ${ARG_TARGET} ${ARG_TARGETS})
  if(NOT targets)
    message(FATAL_ERROR "msledger_instrument: name the targets: msledger_instrument(TARGETS app ...)")
  endif()
  # Said at every configure, so a build log shows whether these targets are
  # the plain build.
  list(JOIN targets " " named)
  if(NOT MSLEDGER_INSTRUMENT)
    message(STATUS "msledger: MSLEDGER_INSTRUMENT is OFF; ${named} build as they are")
    return()
  endif()
  # Files under the root are rewritten; the top of the source tree by default.
  set(root "${CMAKE_SOURCE_DIR}")
  if(ARG_ROOT)
    get_filename_component(root "${ARG_ROOT}" ABSOLUTE)
  endif()
  set(launcher "${MSLEDGER_MSREWRITE}" --launch "--root=${root}"
      "--keep-dir=${CMAKE_BINARY_DIR}/msledger-instrumented")
  foreach(catalog IN LISTS ARG_CATALOG)
    get_filename_component(catalog "${catalog}" ABSOLUTE)
    list(APPEND launcher "--catalog=${catalog}")
  endforeach()
  foreach(target IN LISTS targets)
    if(NOT TARGET ${target})
      message(FATAL_ERROR "msledger_instrument: ${target} is not a target")
    endif()
    get_target_property(type ${target} TYPE)
    if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
      message(FATAL_ERROR "msledger_instrument: ${target} is a ${type}; it compiles nothing")
    endif()
    foreach(lang C CXX)
      get_target_property(existing ${target} ${lang}_COMPILER_LAUNCHER)
      if(NOT existing)
        set(existing "${CMAKE_${lang}_COMPILER_LAUNCHER}")
      endif()
      if(existing MATCHES "msrewrite")
        message(FATAL_ERROR "msledger_instrument: ${target} is instrumented already")
      endif()
      set_property(TARGET ${target} PROPERTY ${lang}_COMPILER_LAUNCHER ${launcher} -- ${existing})
    endforeach()
    # Plain properties, so this works whichever target_link_libraries
    # signature the project uses.
    if(type MATCHES "^(STATIC_LIBRARY|OBJECT_LIBRARY)$")
      set_property(TARGET ${target} APPEND PROPERTY INTERFACE_LINK_LIBRARIES "$<LINK_ONLY:msledger::msledger>")
    else()
      set_property(TARGET ${target} APPEND PROPERTY LINK_LIBRARIES msledger::msledger)
    endif()
  endforeach()
  message(STATUS "msledger: instrumenting ${named}: their sources compile rewritten "
                 "(copies in ${CMAKE_BINARY_DIR}/msledger-instrumented); "
                 "-DMSLEDGER_INSTRUMENT=OFF builds them as they are")
endfunction()

unset(_msledger_file)
