# Finds what msledger builds with. Each failure names the Debian package that
# provides the missing piece; utils/setup.sh installs all of them.

# The leading space keeps CMake from re-wrapping the message: one line.
function(msledger_missing what package)
  message(FATAL_ERROR " msledger: ${what} not found: install the Debian package '${package}' "
                      "(utils/setup.sh installs every package the build needs)")
endfunction()

# LLVM and Clang 19. Ask for 19.1: Debian's ClangConfigVersion rejects a bare
# "19", and an unversioned search may find clang-14's broken config.
set(MSLEDGER_LLVM_PREFIX "/usr/lib/llvm-19" CACHE PATH "Installation prefix of LLVM/Clang 19")
find_package(LLVM 19.1 CONFIG QUIET HINTS "${MSLEDGER_LLVM_PREFIX}/lib/cmake/llvm")
if(NOT LLVM_FOUND)
  msledger_missing("LLVM 19.1 (LLVMConfig.cmake)" "llvm-19-dev")
endif()
find_package(Clang 19.1 CONFIG QUIET HINTS "${MSLEDGER_LLVM_PREFIX}/lib/cmake/clang")
if(NOT Clang_FOUND)
  msledger_missing("Clang 19.1 LibTooling (ClangConfig.cmake)" "libclang-19-dev libclang-cpp19-dev")
endif()
message(STATUS "msledger: LLVM ${LLVM_PACKAGE_VERSION} at ${LLVM_INSTALL_PREFIX}")

# The resource directory (builtin headers) of that clang, found now so that the
# tools never depend on where they are run from.
find_program(MSLEDGER_CLANG clang HINTS "${LLVM_TOOLS_BINARY_DIR}" NO_DEFAULT_PATH)
if(NOT MSLEDGER_CLANG)
  msledger_missing("clang 19 (the compiler driver)" "clang-19")
endif()
execute_process(COMMAND ${MSLEDGER_CLANG} -print-resource-dir
  OUTPUT_VARIABLE MSLEDGER_CLANG_RESOURCE_DIR OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT EXISTS "${MSLEDGER_CLANG_RESOURCE_DIR}/include/stddef.h")
  msledger_missing("the clang 19 resource directory (builtin headers)" "libclang-common-19-dev")
endif()

find_package(boost_json 1.81 CONFIG QUIET)
if(NOT boost_json_FOUND)
  msledger_missing("Boost.JSON 1.81" "libboost-json1.81-dev")
endif()

find_package(GTest CONFIG QUIET)
if(NOT GTest_FOUND)
  msledger_missing("GoogleTest" "libgtest-dev")
endif()

find_package(benchmark CONFIG QUIET)
if(NOT benchmark_FOUND)
  msledger_missing("Google Benchmark" "libbenchmark-dev")
endif()

find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_FOUND)
  msledger_missing("Python 3 (for lit)" "python3")
endif()

# lit and FileCheck come with llvm-19-tools; there is no PyPI here.
find_file(MSLEDGER_LIT lit.py HINTS "${MSLEDGER_LLVM_PREFIX}/build/utils/lit" NO_DEFAULT_PATH)
find_program(MSLEDGER_FILECHECK FileCheck HINTS "${LLVM_TOOLS_BINARY_DIR}" NO_DEFAULT_PATH)
if(NOT MSLEDGER_LIT OR NOT MSLEDGER_FILECHECK)
  msledger_missing("lit and FileCheck" "llvm-19-tools")
endif()
