//===- output.h - Where the ledger's reports go -----------------*- C++ -*-===//
//
// Contract: the reports' log (stderr, or log_path appended to, falling back
// to stderr with a complaint), and the exit with the status of the
// findings. Raw file descriptors and no locks of its own: it runs inside the
// checked process, from its exit path and after fork too. Callers that
// write the log from several threads serialise (the Reporter holds a
// mutex). (What cannot wait for a log -- a bad MSLEDGER_OPTIONS, a journal
// that cannot be opened -- goes to stderr.)
//
// Output files -- reports, snapshots, a job's status -- and the directories
// they go in are written by the project's one atomic writer,
// writeOutputFile and its companions in text_file.h (the catalog component's
// msledger_files library, which msrewrite writes with too). Its contract
// says what is replaced, followed, written through or refused; this header
// includes it for its callers.
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_OUTPUT_H
#define MSLEDGER_RUNTIME_OUTPUT_H

#include "text_file.h"

#include <string>

namespace msledger {

/// Appends `text` to the file `logPath`, or writes it to stderr when
/// `logPath` is empty or cannot be written (saying so first).
void writeLog(const std::string &logPath, const std::string &text);

/// The running program's path (/proc/self/exe), "" if unknown.
std::string programPath();

/// Ends the process now with `status`, stdio flushed, no further exit
/// handlers: the ledger's exit status for findings, from its exit hook.
[[noreturn]] void exitWithStatus(int status);

} // namespace msledger

#endif
