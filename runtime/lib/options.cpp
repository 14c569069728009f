//===- options.cpp - msledger's runtime options ---------------------------===//
#include "options.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <type_traits>

namespace msledger {

namespace {

bool parseValue(const std::string &text, bool *out) {
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

bool parseValue(const std::string &text, int *out) {
  if (text.empty())
    return false;
  char *end = nullptr;
  errno = 0;
  long value = std::strtol(text.c_str(), &end, 10);
  if (*end || errno || value < INT_MIN || value > INT_MAX)
    return false;
  *out = static_cast<int>(value);
  return true;
}

bool parseValue(const std::string &text, std::string *out) {
  *out = text;
  return true;
}

/// "an int", "a bool": the article the value's type takes.
const char *article(const char *type) { return type[0] == 'i' ? "an" : "a"; }

bool validLogLevel(const std::string &level) {
  return level == "info" || level == "warn" || level == "error";
}

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
    std::string name = item.substr(0, equals), value = item.substr(equals + 1);
    bool known = false;
#define MSLEDGER_OPTION(type, optionName, defaultValue, flag, valueName, help) \
  if (name == #optionName) {                                                   \
    known = true;                                                              \
    if (!parseValue(value, &this->optionName))                                 \
      problems->push_back("option '" #optionName "' expects " +                \
                          std::string(article(#type)) +                        \
                          " " #type " value, not '" + value + "'");            \
  }
#include "options.inc"
#undef MSLEDGER_OPTION
    if (!known)
      problems->push_back("unknown option '" + name + "'");
  }
  // Ranges the types do not say: a value outside is refused, and the default
  // kept.
  Options defaults;
  if (exitcode < 0 || exitcode > 255) {
    problems->push_back("option 'exitcode' must be an exit status from 0 to "
                        "255, not " +
                        std::to_string(exitcode));
    exitcode = defaults.exitcode;
  }
  if (chain_depth < 0 || chain_depth > kMaxChainDepth) {
    problems->push_back("option 'chain_depth' must be 0 to " +
                        std::to_string(kMaxChainDepth) + ", not " +
                        std::to_string(chain_depth));
    chain_depth = defaults.chain_depth;
  }
  if (journal_size_mb < 1 || journal_size_mb > kMaxJournalSizeMb) {
    problems->push_back("option 'journal_size_mb' must be 1 to " +
                        std::to_string(kMaxJournalSizeMb) + " (MiB), not " +
                        std::to_string(journal_size_mb));
    journal_size_mb = defaults.journal_size_mb;
  }
  if (!validLogLevel(log_level)) {
    problems->push_back(
        "option 'log_level' must be info, warn or error, not '" + log_level +
        "'");
    log_level = "warn";
  }
}

std::string Options::helpText() {
  std::string text;
  Options defaults;
  auto show = [](const auto &value) -> std::string {
    using T = std::decay_t<decltype(value)>;
    if constexpr (std::is_same_v<T, bool>)
      return value ? "yes" : "no";
    else if constexpr (std::is_same_v<T, int>)
      return std::to_string(value);
    else
      return value.empty() ? "\"\"" : value;
  };
#define MSLEDGER_OPTION(type, name, value, flag, valueName, help)              \
  text += std::string("  ") +                                                  \
          (*flag ? std::string(flag) + "=" + valueName                         \
                 : std::string("(MSLEDGER_OPTIONS only)")) +                   \
          "\n      " #name " (" #type ", default " + show(defaults.name) +     \
          "): " help "\n";
#include "options.inc"
#undef MSLEDGER_OPTION
  return text;
}

namespace {

bool parseIn(const std::string &text, int low, int high, int *out) {
  int value = 0;
  if (!parseValue(text, &value) || value < low || value > high)
    return false;
  *out = value;
  return true;
}

} // namespace

bool parseExitCode(const std::string &text, int *code) {
  return parseIn(text, 0, 255, code);
}

bool parseChainDepth(const std::string &text, int *depth) {
  return parseIn(text, 0, kMaxChainDepth, depth);
}

} // namespace msledger
