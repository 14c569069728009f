//===- escape.h - Text every report can carry -------------------*- C++ -*-===//
//
// Contract: the one place that decides how a string from outside (a file
// name, a program path, a function name, a string read from a JSON input)
// is written where its raw bytes would break the output:
//
//   * printable() for the text report, the log and messages: what does not
//     show or moves the text (isUnseen: C0 and C1 controls -- NUL, newline,
//     ESC --, DEL, the byte-order mark, zero-width and direction marks) and
//     bytes that are not UTF-8 become \xNN, byte by byte, so a name can
//     neither end a line, cut the report (a NUL ends a C string), drive the
//     terminal nor make a bad line look like a good one; other UTF-8
//     (Chinese names included) stays as it is.
//   * validUtf8() for JSON and SARIF: bytes that are not UTF-8 become the
//     text \xNN (JSON escapes control characters itself), so the document
//     stays valid and shows which bytes they were. (A backslash is left as
//     it is: a name holding the text \xff itself reads the same.)
//
// Both return their input unchanged when there is nothing to escape.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_ESCAPE_H
#define MSLEDGER_RUNTIME_ESCAPE_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace msledger {

/// `text` with what isUnseen() names and invalid UTF-8 as \xNN.
std::string printable(std::string_view text);
/// The same, of at most `limit` bytes of `text` (cut between characters),
/// "... (N bytes)" after when it was cut.
std::string printable(std::string_view text, size_t limit);

/// Whether code point `code` shows nothing or moves the text: controls (C0,
/// DEL, C1), the byte-order mark, zero-width, line, paragraph and direction
/// marks, variation selectors and tags.
bool isUnseen(uint32_t code);

/// `text` with the bytes that are not valid UTF-8 as \xNN.
std::string validUtf8(std::string_view text);

/// Whether `text` is valid UTF-8 (no overlong forms, no surrogates).
bool isValidUtf8(std::string_view text);

} // namespace msledger

#endif
