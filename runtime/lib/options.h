//===- options.h - msledger's runtime options -------------------*- C++ -*-===//
//
// Contract: one Options value holds every option of options.inc with its
// default; parse() applies "name=value:name=value" text (MSLEDGER_OPTIONS) on
// top and reports each problem (unknown name, malformed value) in *problems,
// keeping the default for that option. helpText() lists them all.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_OPTIONS_H
#define MSLEDGER_RUNTIME_OPTIONS_H

#include <string>
#include <vector>

namespace msledger {

struct Options {
#define MSLEDGER_OPTION(type, name, value, flag, valueName, help)              \
  MSLEDGER_OPTION_TYPE_##type name = value;
#define MSLEDGER_OPTION_TYPE_bool bool
#define MSLEDGER_OPTION_TYPE_int int
#define MSLEDGER_OPTION_TYPE_string std::string
#include "options.inc"
#undef MSLEDGER_OPTION

  /// Applies `text` on top of the current values.
  void parse(const std::string &text, std::vector<std::string> *problems);
  /// Every option: its launcher flag (or that it has none), its name, type
  /// and default, and its help.
  static std::string helpText();
};

/// An exit status option's value: a whole number from 0 to 255 (what a
/// process can exit with; 256 would read as 0, -1 as 255).
bool parseExitCode(const std::string &text, int *code);
/// The callers an event's chain keeps at most (chain_depth's range is 0 to
/// this), and a chain depth's value: a whole number in that range.
constexpr int kMaxChainDepth = 16;
/// The largest journal (journal_size_mb): 1 TiB.
constexpr int kMaxJournalSizeMb = 1 << 20;
bool parseChainDepth(const std::string &text, int *depth);

} // namespace msledger

#endif
