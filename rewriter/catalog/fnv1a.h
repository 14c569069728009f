//===- fnv1a.h - 64-bit FNV-1a, the project's one hash ----------*- C++ -*-===//
//
// Contract: fnv1a64(bytes) is the 64-bit FNV-1a hash of the bytes (offset
// basis 0xcbf29ce484222325, prime 0x100000001b3: each byte is XORed in,
// then the hash multiplied by the prime); fnv1a64(bytes, hash) folds the
// bytes into a running `hash` instead of the offset basis. Every hash the
// project keeps is this one: a call site's serial (msrewrite's, the hash of
// the site's file, function, callee and ordinal, and that of an msSanitizer
// swapped-header call), an instrumented file's trailer, a journal's catalog
// identity. Those outlive the build that made them -- in rewritten sources,
// journals and test expectations -- so its values never change.
//
// Header-only and dependency-free: the catalog component, msrewrite and the
// runtime (libmsledger.so and its preload library) all include it.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_REWRITER_FNV1A_H
#define MSLEDGER_REWRITER_FNV1A_H

#include <cstdint>
#include <string_view>

namespace msledger {

/// FNV-1a's 64-bit offset basis: the hash of no bytes.
constexpr uint64_t kFnv1a64Basis = 0xcbf29ce484222325ULL;

/// `hash` with each byte of `bytes` folded in by FNV-1a's step.
constexpr uint64_t fnv1a64(std::string_view bytes,
                           uint64_t hash = kFnv1a64Basis) {
  for (char c : bytes)
    hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return hash;
}

} // namespace msledger

#endif
