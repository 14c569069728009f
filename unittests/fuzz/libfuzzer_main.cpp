//===- libfuzzer_main.cpp - libFuzzer's entry to one fuzzed reader --------===//
//
// Built once per target with MSLEDGER_FUZZ_TARGET naming its function
// (fuzz_targets.h), with clang's -fsanitize=fuzzer (CMakeLists.txt).
//
//===----------------------------------------------------------------------===//
#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  msledger::MSLEDGER_FUZZ_TARGET(data, size);
  return 0;
}
