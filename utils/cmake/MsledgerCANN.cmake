# Chooses the CANN toolkit msledger builds against and prints the choice.
#
# By default: the simulated device of utils/simdevice, laid out in the build
# tree like a toolkit (build/simcann/{include,lib64}). When ASCEND_HOME_PATH
# names a real toolkit (include/acl/acl.h and lib64/libascendcl.so), the
# product builds against it; the simulated device is still built, because the
# test suites run on it.
#
# Result: the imported target CANN::ascendcl, MSLEDGER_CANN_SIMULATED, and
# the global property MSLEDGER_TOOLKIT_INCLUDE_DIRS: the include/ folders of
# the toolkit built against, whose operator headers (aclnnop/) msledger
# interposes -- a real toolkit's, here; the simulated toolkit's folders, set
# where it is built (utils/simdevice).

set(MSLEDGER_SIMCANN_DIR "${PROJECT_BINARY_DIR}/simcann")
set(_ascend_home "$ENV{ASCEND_HOME_PATH}")
if(_ascend_home AND EXISTS "${_ascend_home}/.mssim-toolkit")
  set(_ascend_home "") # our own simulated toolkit, e.g. from set_env.sh
endif()

if(_ascend_home)
  if(NOT EXISTS "${_ascend_home}/include/acl/acl.h" OR NOT EXISTS "${_ascend_home}/lib64/libascendcl.so")
    message(FATAL_ERROR " msledger: ASCEND_HOME_PATH=${_ascend_home} is not a CANN toolkit "
                        "(expected include/acl/acl.h and lib64/libascendcl.so); unset it to build "
                        "against the simulated device")
  endif()
  set(MSLEDGER_CANN_SIMULATED OFF)
  set_property(GLOBAL PROPERTY MSLEDGER_TOOLKIT_INCLUDE_DIRS "${_ascend_home}/include")
  add_library(CANN::ascendcl SHARED IMPORTED GLOBAL)
  set_target_properties(CANN::ascendcl PROPERTIES
    IMPORTED_LOCATION "${_ascend_home}/lib64/libascendcl.so"
    INTERFACE_INCLUDE_DIRECTORIES "${_ascend_home}/include")
  message(STATUS "msledger: building against the CANN toolkit at ${_ascend_home}")
else()
  set(MSLEDGER_CANN_SIMULATED ON)
  message(STATUS "msledger: building against the simulated CANN device (${MSLEDGER_SIMCANN_DIR})")
endif()
