//===- junit.cpp - Findings as JUnit test results -------------------------===//
#include "junit.h"

#include "baseline.h"
#include "catalog_table.h"
#include "escape.h"
#include "fingerprint.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace msledger {

std::string xmlEscape(const std::string &text) {
  static const char kHex[] = "0123456789abcdef";
  auto escapeByte = [](std::string &out, unsigned char c) {
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 15];
  };
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    // U+FFFE and U+FFFF (EF BF BE, EF BF BF): not characters XML holds.
    if (c == 0xEF && i + 2 < text.size() &&
        static_cast<unsigned char>(text[i + 1]) == 0xBF &&
        (static_cast<unsigned char>(text[i + 2]) & 0xFE) == 0xBE) {
      for (size_t j = i; j < i + 3; ++j)
        escapeByte(out, static_cast<unsigned char>(text[j]));
      i += 2;
      continue;
    }
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    default:
      if (c < 0x20 && c != '\n' && c != '\t' && c != '\r')
        escapeByte(out, c);
      else
        out += static_cast<char>(c);
    }
  }
  return out;
}

namespace {

/// One test case: the findings of one kind at one site and level.
struct Case : JunitCase {
  uint64_t firstSerial = UINT64_MAX; // the order cases are written in
  std::vector<Record> leaks;         // its leaks, formatted together
  uint64_t count = 0, bytes = 0;
  bool memory = false;
};

std::string siteName(const SiteTable &sites, uint32_t site,
                     const std::string &api) {
  const msledger_site *s = sites.site(site);
  if (!s || !s->file)
    return "<unknown>: " + printable(api);
  return printable(location(s)) + ": " + printable(api);
}

/// `text` with each line printable() (a journal's names are anyone's
/// bytes), its lines kept.
std::string printableLines(const std::string &text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    out += printable(std::string_view(text).substr(start, end - start));
    if (end < text.size())
      out += '\n';
    start = end + 1;
  }
  return out;
}

} // namespace

std::string formatJunit(const ReportInput &input,
                        const std::vector<Record> (&live)[2],
                        const std::vector<ErrorEvent> &errors) {
  // (level, rule, site, api) -> the case; the API apart: calls of two
  // APIs that were not rewritten share site 0.
  std::map<std::tuple<int, std::string, uint32_t, unsigned>, Case> cases;
  // The case of a finding of `rule` at `site` through `api`, counted.
  auto caseOf = [&](int level, const std::string &rule, uint32_t site,
                    unsigned api, uint64_t serial) -> Case & {
    Case &c = cases[{level, rule, site, api}];
    if (c.rule.empty()) {
      c.rule = rule;
      c.name =
          siteName(input.sites, site, calledName(api, input.sites.site(site)));
      c.className = std::string("msledger.") +
                    levelName(static_cast<Level>(level)) + "." + rule;
    }
    c.firstSerial = std::min(c.firstSerial, serial);
    ++c.count;
    return c;
  };
  for (int level = 0; level < 2; ++level)
    for (const Record &record : live[level]) {
      Case &c = caseOf(level, leakRule(record.api), record.site, record.api,
                       record.serial);
      c.memory = familyOf(record.api).kind == Kind::Memory;
      c.leaks.push_back(record);
      c.bytes += c.memory ? record.size : 0;
    }
  bool titled = input.tracked[0] && input.tracked[1];
  for (const ErrorEvent &error : errors) {
    Case &c =
        caseOf(static_cast<int>(familyOf(error.api).level),
               errorRule(error.kind), error.site, error.api, error.serial);
    if (c.message.empty())
      c.message = errorTitle(error, &input.sites);
    c.text += formatError(input.sites, error, titled);
  }
  std::vector<Case *> ordered;
  for (auto &entry : cases) {
    Case &c = entry.second;
    if (!c.leaks.empty()) {
      int level = std::get<0>(entry.first);
      c.message =
          std::to_string(c.count) +
          (c.memory
               ? " leak(s) of " + std::to_string(c.bytes) + " byte(s) in all"
               : std::string(" leaked ") + familyOf(c.leaks[0].api).display);
      c.text = formatLeaks(input.sites, static_cast<Level>(level), c.leaks,
                           false, true, false, nullptr);
    }
    if (input.baseline) {
      const auto &[level, rule, site, api] = entry.first;
      c.known = input.baseline->contains(findingFingerprint(
          rule.c_str(), static_cast<Level>(level), input.sites, site,
          calledName(api, input.sites.site(site))));
    }
    ordered.push_back(&c);
  }
  std::sort(ordered.begin(), ordered.end(), [](const Case *a, const Case *b) {
    return a->firstSerial < b->firstSerial;
  });
  std::vector<JunitCase> written;
  for (const Case *c : ordered)
    written.push_back(*c);
  return junitDocument("msledger " +
                           (input.program.empty() ? "process" : input.program) +
                           " (pid " + std::to_string(input.pid) + ")",
                       written);
}

std::string junitDocument(const std::string &suite,
                          const std::vector<JunitCase> &cases) {
  size_t tests = cases.empty() ? 1 : cases.size();
  size_t skipped = static_cast<size_t>(std::count_if(
      cases.begin(), cases.end(), [](const JunitCase &c) { return c.known; }));
  std::string counts = "tests=\"" + std::to_string(tests) + "\" failures=\"" +
                       std::to_string(cases.size() - skipped) +
                       "\" errors=\"0\"";
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    "<testsuites name=\"msledger\" " +
                    counts + ">\n  <testsuite name=\"" +
                    xmlEscape(printable(suite)) + "\" " + counts +
                    " skipped=\"" + std::to_string(skipped) + "\">\n";
  if (cases.empty())
    out += "    <testcase name=\"no findings\" classname=\"msledger\"/>\n";
  for (const JunitCase &c : cases) {
    out += "    <testcase name=\"" + xmlEscape(printable(c.name)) +
           "\" classname=\"" + xmlEscape(printable(c.className)) + "\">\n";
    if (c.known)
      out +=
          "      <skipped message=\"" +
          xmlEscape(printable("known finding, in the baseline: " + c.message)) +
          "\" type=\"" + xmlEscape(printable(c.rule)) + "\"/>\n";
    else
      out += "      <failure message=\"" + xmlEscape(printable(c.message)) +
             "\" type=\"" + xmlEscape(printable(c.rule)) + "\">" +
             xmlEscape(printableLines(c.text)) + "</failure>\n";
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

} // namespace msledger
