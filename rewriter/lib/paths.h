//===- paths.h - The project root and the files under it --------*- C++ -*-===//
//
// Contract: how msrewrite names files and decides which it may touch.
// Every path it keeps is absolute and normalised (normalisePath); a project
// root is such a path with a trailing '/'. A file is the project's when it is
// under the root and not msledger's own (its headers, an install, a build
// tree or the CMake package's kept copies inside the root); only project
// files are rewritten or reverted. Nothing here writes; isMsledgerFile reads
// directories (and caches what it found, safely across threads).
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_REWRITER_PATHS_H
#define MSLEDGER_REWRITER_PATHS_H

#include <string>

namespace msledger {

/// `path` made absolute (against the current directory) and without "." or
/// ".." components; symbolic links are kept as they are.
std::string normalisePath(const std::string &path);
/// Whether `path` is strictly below `root` (which ends in '/').
bool isUnder(const std::string &path, const std::string &root);
/// `path` relative to `root` (which ends in '/'); a path outside it as it is.
std::string relativeTo(const std::string &path, const std::string &root);
/// Whether `path` is msledger's own, never to be rewritten or reverted:
/// msledger's headers (.../include/msledger/), or a file in an msledger
/// install prefix, build tree or the CMake package's kept copies
/// (msledger-instrumented) between `root` and the file. A root that is itself
/// inside such a tree (msledger's own tests) does not make its files
/// msledger's.
bool isMsledgerFile(const std::string &path, const std::string &root);
/// A file msrewrite may rewrite: under `root`, and not msledger's.
bool isProjectFile(const std::string &path, const std::string &root);

} // namespace msledger

#endif
