//===- installation.h - Where msrewrite finds what it uses ------*- C++ -*-===//
//
// Contract: the catalog, msledger's headers and library, and clang's builtin
// headers, as the running msrewrite finds them. An installed msrewrite
// (PREFIX/bin) uses PREFIX/share/msledger/cann.json, PREFIX/include and
// PREFIX/lib, and PREFIX/lib/clang/N when that holds builtin headers; run
// from the build tree it uses the paths configured there (compile
// definitions of installation.cpp). So a moved or copied install works.
// Found once, on first use.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_REWRITER_INSTALLATION_H
#define MSLEDGER_REWRITER_INSTALLATION_H

#include <string>
#include <vector>

namespace msledger {

struct Installation {
  std::string catalog;     // the built-in catalog (cann.json)
  std::string resourceDir; // clang's, for its builtin headers
  std::vector<std::string> includeDirs;
  std::string libraryDir;

  /// The installation of the running program.
  static const Installation &get();

  /// The flags compiling rewritten files needs: the include directories and
  /// -include msledger/track.h.
  std::vector<std::string> compileFlags() const;
  /// The flags linking them needs: libmsledger, whatever the link order.
  std::vector<std::string> linkFlags() const;
};

} // namespace msledger

#endif
