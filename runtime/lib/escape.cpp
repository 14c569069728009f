//===- escape.cpp - Text every report can carry ---------------------------===//
#include "escape.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace msledger {

namespace {

/// The code point of the valid UTF-8 sequence at `text[i]` and its length,
/// or length 0 if none starts there (RFC 3629: no overlong forms, no
/// surrogates, nothing past U+10FFFF).
std::pair<uint32_t, size_t> decodeUtf8(std::string_view text, size_t i) {
  auto byte = [&](size_t k) -> uint32_t {
    return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0;
  };
  auto tail = [&](size_t k) { return (byte(k) & 0xC0) == 0x80; };
  uint32_t lead = byte(0);
  if (lead < 0x80)
    return {lead, 1};
  if (lead >= 0xC2 && lead <= 0xDF && tail(1))
    return {(lead & 0x1F) << 6 | (byte(1) & 0x3F), 2};
  if (lead >= 0xE0 && lead <= 0xEF && tail(1) && tail(2)) {
    uint32_t code =
        (lead & 0x0F) << 12 | (byte(1) & 0x3F) << 6 | (byte(2) & 0x3F);
    if (code >= 0x800 && (code < 0xD800 || code > 0xDFFF))
      return {code, 3};
  }
  if (lead >= 0xF0 && lead <= 0xF4 && tail(1) && tail(2) && tail(3)) {
    uint32_t code = (lead & 0x07) << 18 | (byte(1) & 0x3F) << 12 |
                    (byte(2) & 0x3F) << 6 | (byte(3) & 0x3F);
    if (code >= 0x10000 && code <= 0x10FFFF)
      return {code, 4};
  }
  return {0, 0};
}

void appendEscaped(std::string &out, unsigned char byte) {
  static const char *const kHex = "0123456789abcdef";
  out += "\\x";
  out += kHex[byte >> 4];
  out += kHex[byte & 15];
}

/// `text` with what `escapeUnseen` says is unsafe escaped, byte by byte.
std::string escape(std::string_view text, bool escapeUnseen) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    auto [code, length] = decodeUtf8(text, i);
    if (length == 0 || (escapeUnseen && isUnseen(code))) {
      for (size_t k = 0; k < std::max<size_t>(length, 1); ++k)
        appendEscaped(out, static_cast<unsigned char>(text[i + k]));
      i += std::max<size_t>(length, 1);
      continue;
    }
    out.append(text.substr(i, length));
    i += length;
  }
  return out;
}

} // namespace

bool isUnseen(uint32_t code) {
  return code < 0x20 || (code >= 0x7F && code <= 0x9F) || code == 0xAD ||
         code == 0x34F || code == 0x61C || (code >= 0x180B && code <= 0x180E) ||
         (code >= 0x200B && code <= 0x200F) ||
         (code >= 0x2028 && code <= 0x202E) ||
         (code >= 0x2060 && code <= 0x206F) ||
         (code >= 0xFE00 && code <= 0xFE0F) || code == 0xFEFF ||
         (code >= 0xFFF0 && code <= 0xFFFB) ||
         (code >= 0xE0000 && code <= 0xE0FFF);
}

bool isValidUtf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    size_t length = decodeUtf8(text, i).second;
    if (length == 0)
      return false;
    i += length;
  }
  return true;
}

std::string printable(std::string_view text) {
  return escape(text, /*escapeUnseen=*/true);
}

std::string printable(std::string_view text, size_t limit) {
  if (text.size() <= limit)
    return printable(text);
  size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
    --cut; // not inside a character
  return printable(text.substr(0, cut)) + "... (" +
         std::to_string(text.size()) + " bytes)";
}

std::string validUtf8(std::string_view text) {
  return isValidUtf8(text) ? std::string(text)
                           : escape(text, /*escapeUnseen=*/false);
}

} // namespace msledger
