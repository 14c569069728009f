//===- cann_api.h - The catalog's functions, declared -----------*- C++ -*-===//
//
// Contract: the declaration of every function msledger interposes -- every
// catalog function but those recorded by their callee (mstx's, inline in the
// application) -- made from the catalog's own signatures (the
// MSLEDGER_DECLARATION rows msledger-catalog-gen writes into
// catalog_table.inc) with the types of cann_types.h and msledger.h. The
// generated interposers and msSanitizer's swapped-header functions are
// compiled against these, never against a toolkit's headers: a release's
// own headers lack some catalog APIs and keep the driver's off the include
// path, while each function's ABI is the same in every release.
// unittests/runtime/CannTypesTest.cpp compiles the same rows against the
// simulated toolkit's headers, where any difference is an error.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_CANN_API_H
#define MSLEDGER_RUNTIME_CANN_API_H

#include "cann_types.h"
#include "msledger/msledger.h"

extern "C" {
#define MSLEDGER_DECLARATION(name, result, parameters) result name parameters;
#include "catalog_table.inc"
}

#endif
