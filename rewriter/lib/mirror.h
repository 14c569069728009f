//===- mirror.h - A rewritten copy of the project ---------------*- C++ -*-===//
//
// Contract: writes a mirror of the project -- the same files at the same
// root-relative paths under another directory, the planned rewrites in place
// of their originals -- for `msrewrite -o DIR` (with the rest of the project
// and a compile database that builds the copy) and for `msrewrite --launch`
// (the files one compilation reads). A file is written only when its bytes
// change, so a build in the mirror sees only what changed as new; a copied
// file keeps its permissions and modification time. Build products (ELF
// objects and archives, the database's outputs, CMake build trees,
// version-control metadata) are never copied. mirrored() maps a path into
// the mirror; launch.h's remapPaths() is its inverse for compiler output.
// Failures come back as one message naming the path and the reason.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_REWRITER_MIRROR_H
#define MSLEDGER_REWRITER_MIRROR_H

#include "instrument.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <set>
#include <string>
#include <vector>

namespace msledger {

/// `text` (a path or an argument naming one) with each occurrence of `root`
/// that names the root directory itself or something below it replaced by
/// `mirror`. Both end in '/'.
std::string mirrored(const std::string &text, const std::string &root,
                     const std::string &mirror);

/// Whether a file is a build product: an ELF object, program or library, or
/// a static archive. These are never copied into a mirror, whose own build
/// makes them (an old one copied next to a rewritten source could pass for
/// up to date, or replace the mirror's instrumented build).
bool isBinaryProduct(const std::string &path);

/// The files a database's commands write (-o), absolute.
std::set<std::string>
compileOutputs(const clang::tooling::CompilationDatabase &database);

/// Every project file the translation units read (`projectFiles`, and
/// `files` but for the `failed` ones), rewritten as `plan` says or as it is,
/// at the same place under `mirror`. `written` gets the files' original
/// paths. A file outside `root` stays where it is, told to `note`.
bool writeMirrorFiles(const std::string &mirror,
                      const std::vector<std::string> &files,
                      const std::set<std::string> &failed,
                      const std::set<std::string> &projectFiles,
                      const std::vector<FileRewrite> &plan,
                      const std::string &root, std::set<std::string> *written,
                      llvm::function_ref<void(const std::string &)> note,
                      std::string *error);

/// The rest of the project -- build files, scripts, data -- so that the
/// mirror builds the way the original does. Leaves out the mirror itself,
/// `databaseDir` (the build tree), version-control metadata, CMake build
/// trees, the files in `written` and `outputs`, and other build products.
bool copyRestOfProject(const std::string &root, const std::string &mirror,
                       const std::string &databaseDir,
                       const std::set<std::string> &written,
                       const std::set<std::string> &outputs,
                       std::string *error);

/// msrewrite -o: the mirror's files, the rest of the project, and
/// MIRROR/compile_commands.json building the mirror's copies of `files` with
/// their commands from `database`.
bool writeMirror(const clang::tooling::CompilationDatabase &database,
                 const std::vector<std::string> &files,
                 const std::set<std::string> &failed,
                 const std::set<std::string> &projectFiles,
                 const std::vector<FileRewrite> &plan, const std::string &root,
                 const std::string &mirror, const std::string &databaseDir,
                 llvm::function_ref<void(const std::string &)> note,
                 std::string *error);

} // namespace msledger

#endif
