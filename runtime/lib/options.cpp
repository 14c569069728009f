//===- options.cpp - msledger's runtime options ---------------------------===//
#include "options.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

namespace msledger {

bool YesNo::read(const std::string &text, bool *out, std::string *) {
  if (text == "1" || text == "yes" || text == "true") {
    *out = true;
    return true;
  }
  if (text == "0" || text == "no" || text == "false") {
    *out = false;
    return true;
  }
  return false;
}

template <int Low, int High>
bool Bounded<Low, High>::read(const std::string &text, int *out,
                              std::string *) {
  if (text.empty())
    return false;
  char *end = nullptr;
  errno = 0;
  long value = std::strtol(text.c_str(), &end, 10);
  if (*end || errno || value < Low || value > High)
    return false;
  *out = static_cast<int>(value);
  return true;
}
template struct Bounded<0, 255>;
template struct Bounded<0, kMaxChainDepth>;
template struct Bounded<1, kMaxJournalSizeMb>;
template struct Bounded<0, 1000000000>;
template struct Bounded<2, 1000000>;

bool SerialNumber::read(const std::string &text, long long *out,
                        std::string *) {
  if (text.empty())
    return false;
  char *end = nullptr;
  errno = 0;
  long long value = std::strtoll(text.c_str(), &end, 10);
  if (*end || errno || value < 0 || value > (1LL << 52))
    return false;
  *out = value;
  return true;
}

bool LogLevelKind::read(const std::string &text, LogLevel *out, std::string *) {
  if (text == "info")
    *out = LogLevel::Info;
  else if (text == "warn")
    *out = LogLevel::Warn;
  else if (text == "error")
    *out = LogLevel::Error;
  else
    return false;
  return true;
}

std::string LogLevelKind::show(LogLevel value) {
  switch (value) {
  case LogLevel::Info:
    return "info";
  case LogLevel::Warn:
    return "warn";
  case LogLevel::Error:
    return "error";
  }
  return "";
}

bool SignalKind::read(const std::string &name, int *out, std::string *why) {
  if (name.empty() || name == "none") {
    *out = 0;
    return true;
  }
  std::string bare = name.rfind("SIG", 0) == 0 ? name.substr(3) : name;
  if (bare == "USR1" || bare == "USR2") {
    *out = bare == "USR1" ? SIGUSR1 : SIGUSR2;
    return true;
  }
  char *end = nullptr;
  long number = strtol(name.c_str(), &end, 10);
  if (*end || number <= 0 || number >= NSIG) {
    *why = "names no signal";
    return false;
  }
  const char *reason = nullptr;
  switch (number) {
  case SIGKILL:
  case SIGSTOP:
    reason = "cannot be caught";
    break;
  case SIGSEGV:
  case SIGBUS:
  case SIGFPE:
  case SIGILL:
  case SIGTRAP:
  case SIGSYS:
  case SIGABRT:
    // A handler that returns from a fault goes back to the faulting
    // instruction: a crash would become endless reports.
    reason = "reports a fault or abort, and a crash must stay a crash";
    break;
  default:
    // glibc keeps the first real-time signals for its threads; sigaction on
    // them fails.
    if (number > 31 && number < SIGRTMIN)
      reason = "is reserved by the C library";
  }
  if (reason) {
    const char *abbreviation = sigabbrev_np(static_cast<int>(number));
    *why = (abbreviation ? "SIG" + std::string(abbreviation)
                         : "signal " + std::to_string(number)) +
           " " + reason;
    return false;
  }
  *out = static_cast<int>(number);
  return true;
}

std::string SignalKind::show(int value) {
  if (value == 0)
    return "none";
  if (value == SIGUSR1)
    return "SIGUSR1";
  if (value == SIGUSR2)
    return "SIGUSR2";
  return std::to_string(value);
}

bool Seconds::read(const std::string &text, long *out, std::string *) {
  if (text.empty()) {
    *out = 0;
    return true;
  }
  char *end = nullptr;
  double value = strtod(text.c_str(), &end);
  if (*end || !(value > 0) || value > 86400)
    return false;
  *out = std::max(1L, static_cast<long>(value * 1000 + 0.5));
  return true;
}

std::string Seconds::show(long milliseconds) {
  if (milliseconds <= 0)
    return "";
  std::string text = std::to_string(milliseconds / 1000);
  if (long fraction = milliseconds % 1000) {
    char digits[8];
    snprintf(digits, sizeof digits, ".%03ld", fraction);
    std::string decimals = digits;
    decimals.erase(decimals.find_last_not_of('0') + 1);
    text += decimals;
  }
  return text;
}

namespace {

/// Splits at ':' outside quotes; strips the quotes.
std::vector<std::string> splitOptions(const std::string &text,
                                      std::vector<std::string> *problems) {
  std::vector<std::string> items;
  std::string current;
  char quote = 0;
  for (char c : text) {
    if (quote) {
      if (c == quote)
        quote = 0;
      else
        current += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == ':') {
      items.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (quote)
    problems->push_back("unterminated quote in MSLEDGER_OPTIONS");
  items.push_back(current);
  return items;
}

} // namespace

bool Options::set(const std::string &name, const std::string &text,
                  std::string *problem, const std::string &subject) {
#define MSLEDGER_OPTION(kind, optionName, defaultValue, flag, valueName, help) \
  if (name == #optionName) {                                                   \
    std::string why;                                                           \
    kind::Value value{};                                                       \
    if (kind::read(text, &value, &why)) {                                      \
      this->optionName = value;                                                \
      return true;                                                             \
    }                                                                          \
    this->optionName = kind::refused(this->optionName);                        \
    *problem = (subject.empty() ? "option '" #optionName "'" : subject) +      \
               " expects " + kind::expects() + ", not '" + text + "'" +        \
               (why.empty() ? "" : " (" + why + ")") +                         \
               (subject.empty() ? kind::refusal() : "");                       \
    return false;                                                              \
  }
#include "options.inc"
#undef MSLEDGER_OPTION
  *problem = "unknown option '" + name + "'";
  return false;
}

std::string Options::text(const std::string &name) const {
#define MSLEDGER_OPTION(kind, optionName, defaultValue, flag, valueName, help) \
  if (name == #optionName)                                                     \
    return kind::show(this->optionName);
#include "options.inc"
#undef MSLEDGER_OPTION
  return "";
}

void Options::parse(const std::string &text,
                    std::vector<std::string> *problems) {
  for (const std::string &item : splitOptions(text, problems)) {
    if (item.empty())
      continue;
    size_t equals = item.find('=');
    if (equals == std::string::npos) {
      problems->push_back("option '" + item +
                          "' has no value (expected name=value)");
      continue;
    }
    std::string problem;
    if (!set(item.substr(0, equals), item.substr(equals + 1), &problem))
      problems->push_back(problem);
  }
}

std::string Options::helpText() {
  std::string text;
  Options defaults;
#define MSLEDGER_OPTION(kind, name, value, flag, valueName, help)              \
  {                                                                            \
    std::string shown = kind::show(defaults.name);                             \
    text += std::string("  ") +                                                \
            (*flag ? std::string(flag) + "=" + valueName                       \
                   : std::string("(MSLEDGER_OPTIONS only)")) +                 \
            "\n      " #name " (" + kind::type + ", default " +                \
            (shown.empty() ? "\"\"" : shown) + "): " help "\n";                \
  }
#include "options.inc"
#undef MSLEDGER_OPTION
  return text;
}

bool quoteOptionValue(const std::string &value, std::string *quoted) {
  if (value.find_first_of(":\"'") == std::string::npos)
    *quoted = value;
  else if (value.find('"') == std::string::npos)
    *quoted = "\"" + value + "\"";
  else if (value.find('\'') == std::string::npos)
    *quoted = "'" + value + "'";
  else
    return false;
  return true;
}

} // namespace msledger
