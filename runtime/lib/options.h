//===- options.h - msledger's runtime options -------------------*- C++ -*-===//
//
// Contract: one option model for the runtime and the launcher. options.inc
// declares each option once, with its kind; a kind (below) is how a value
// of the option is read, shown and said to be wrong:
//
//   YesNo        yes/no (also true/false, 1/0)            -> bool
//   Bounded<L,H> a whole number from L to H               -> int
//   SerialNumber a whole number from 0 to 2^52            -> long long
//   LogLevelKind info, warn or error                      -> LogLevel
//   SignalKind   SIGUSR1, SIGUSR2, a number, or none      -> int (0: none)
//                (not one that reports a fault or abort, SIGKILL, SIGSTOP
//                or one the C library reserves)
//   Seconds      seconds, decimals allowed, up to a day   -> long ms (0: none)
//   Path         a file or directory name                 -> std::string
//   PathPattern  the same, %p becoming each process's pid -> std::string
//
// Options::set() is the one parser and validator: a value of the wrong form
// or out of range is refused, the option keeping its value (a report signal
// becoming none), with a message
// naming what the kind expects ("expects a number from 0 to 255, not
// '256'"). parse() applies "name=value:name=value" text (MSLEDGER_OPTIONS;
// quote a value containing ':' with '"' or '\'') through set(), and reports
// each problem in *problems. text() is a value as set() reads it back:
// what the launcher puts in MSLEDGER_OPTIONS. helpText() lists them all.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_OPTIONS_H
#define MSLEDGER_RUNTIME_OPTIONS_H

#include <csignal>
#include <string>
#include <vector>

namespace msledger {

enum class LogLevel { Info, Warn, Error };

/// The callers an event's chain keeps at most (chain_depth's range is 0 to
/// this).
constexpr int kMaxChainDepth = 16;
/// The largest journal (journal_size_mb): 1 TiB.
constexpr int kMaxJournalSizeMb = 1 << 20;

// The kinds: Value, the help's type name, what the kind expects, and
// read()/show(). read() gives false (and, for some, *why) for a value it
// refuses; the option then keeps its value, unless the kind says otherwise
// (refused(), and refusal() to say so).
struct KeepsItsValue {
  template <typename Value> static Value refused(Value current) {
    return current;
  }
  static const char *refusal() { return ""; }
};

struct YesNo : KeepsItsValue {
  using Value = bool;
  static constexpr const char *type = "bool";
  static std::string expects() { return "yes or no"; }
  static bool read(const std::string &text, bool *out, std::string *why);
  static std::string show(bool value) { return value ? "yes" : "no"; }
};

/// A whole number from Low to High.
template <int Low, int High> struct Bounded : KeepsItsValue {
  using Value = int;
  static constexpr const char *type = "int";
  static std::string expects() {
    return "a number from " + std::to_string(Low) + " to " +
           std::to_string(High);
  }
  static bool read(const std::string &text, int *out, std::string *why);
  static std::string show(int value) { return std::to_string(value); }
};
/// What a process can exit with: 256 would read as 0, -1 as 255.
using ExitStatus = Bounded<0, 255>;
using ChainDepth = Bounded<0, kMaxChainDepth>;
using JournalMiB = Bounded<1, kMaxJournalSizeMb>;
using PrintLimit = Bounded<0, 1000000000>;
using SnapshotCount = Bounded<2, 1000000>;
using CheckpointNumber = Bounded<0, 1000000000>;

/// A serial number, 0 to 2^52 (first_serial): serials stay exact in JSON
/// (below 2^53) for as long as any run goes on from there.
struct SerialNumber : KeepsItsValue {
  using Value = long long;
  static constexpr const char *type = "int";
  static std::string expects() {
    return "a number from 0 to " + std::to_string(1LL << 52);
  }
  static bool read(const std::string &text, long long *out, std::string *why);
  static std::string show(long long value) { return std::to_string(value); }
};

struct LogLevelKind : KeepsItsValue {
  using Value = LogLevel;
  static constexpr const char *type = "level";
  static std::string expects() { return "info, warn or error"; }
  static bool read(const std::string &text, LogLevel *out, std::string *why);
  static std::string show(LogLevel value);
};

/// A refused signal is none: the application may use the signal it named
/// for itself, and a handler would take it.
struct SignalKind {
  using Value = int;
  static int refused(int) { return 0; }
  static const char *refusal() { return "; no report signal is used"; }
  static constexpr const char *type = "signal";
  static std::string expects() {
    return "SIGUSR1, SIGUSR2, a signal number or none";
  }
  /// *why says why a number cannot serve: "SIGSEGV reports a fault or
  /// abort, ...", "names no signal".
  static bool read(const std::string &text, int *out, std::string *why);
  static std::string show(int value);
};

/// An interval in seconds, kept in milliseconds (at least 1; 0: none).
struct Seconds : KeepsItsValue {
  using Value = long;
  static constexpr const char *type = "seconds";
  static std::string expects() { return "a number of seconds"; }
  static bool read(const std::string &text, long *out, std::string *why);
  static std::string show(long milliseconds);
};

struct Path : KeepsItsValue {
  using Value = std::string;
  static constexpr const char *type = "string";
  static std::string expects() { return "a path"; }
  static bool read(const std::string &text, std::string *out, std::string *) {
    *out = text;
    return true;
  }
  static std::string show(const std::string &value) { return value; }
};
/// A path in which %p becomes the pid of each process (job.h expandPath).
struct PathPattern : Path {};

struct Options {
#define MSLEDGER_OPTION(kind, name, value, flag, valueName, help)              \
  kind::Value name = value;
#include "options.inc"
#undef MSLEDGER_OPTION

  /// Sets option `name` from `text`; false with *problem ("unknown option
  /// 'x'", "option 'exitcode' expects a number from 0 to 255, not '256'")
  /// and the option unchanged (report_signal: none, which the message
  /// says). A `subject` names the value in the message instead
  /// ("--exitcode expects ..."), which then says nothing of what the option
  /// became: the caller refuses the value (the launcher's flags).
  bool set(const std::string &name, const std::string &text,
           std::string *problem, const std::string &subject = "");
  /// Option `name`'s value as set() reads it ("yes", "23", "0.5", "SIGUSR1",
  /// ""); "" for no such option.
  std::string text(const std::string &name) const;
  /// Applies `text` ("name=value:name=value") on top of the current values.
  void parse(const std::string &text, std::vector<std::string> *problems);
  /// Every option: its launcher flag (or that it has none), its name, type
  /// and default, and its help.
  static std::string helpText();
};

/// `value` as MSLEDGER_OPTIONS reads it back: quoted with '"' or '\'' if it
/// holds ':' or a quote; false if it holds both quotes (it cannot be).
bool quoteOptionValue(const std::string &value, std::string *quoted);

} // namespace msledger

#endif
