//===- text_file.h - Whole-file reads and atomic writes ---------*- C++ -*-===//
//
// Contract: readTextFile reads a regular file's bytes whole (a directory,
// a FIFO or a device is refused: they would read as empty, block or never
// end); writeTextFileAtomically
// writes to a temporary next to the file (keeping an existing file's mode)
// and renames it over the file, so a reader -- a concurrent build, say --
// sees the old content or the new, never a half. Both report failure with a
// message naming the path and the reason, and never throw. Shared by
// msrewrite and msledger-catalog-gen.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_REWRITER_TEXT_FILE_H
#define MSLEDGER_REWRITER_TEXT_FILE_H

#include <optional>
#include <string>

namespace msledger {

/// The bytes of `path`, or nullopt with *error set ("cannot read PATH: why").
std::optional<std::string> readTextFile(const std::string &path,
                                        std::string *error);

/// Replaces `path` with `text` atomically; false with *error set.
bool writeTextFileAtomically(const std::string &path, const std::string &text,
                             std::string *error);

} // namespace msledger

#endif
