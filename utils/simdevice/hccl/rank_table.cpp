//===- rank_table.cpp - HCCL rank table files -----------------------------===//
//
// A small JSON reader (objects, arrays, strings, numbers, literals) and the
// rank table's rules on top of it (rank_table.h).
//
//===----------------------------------------------------------------------===//
#include "rank_table.h"

#include <arpa/inet.h>
#include <cctype>
#include <map>
#include <memory>
#include <set>

namespace mssim {
namespace hccl {

namespace {

struct Json {
  enum Kind { Null, Bool, Number, String, Array, Object } Type = Null;
  std::string Text; // a string's value, a number's spelling
  std::vector<Json> Items;
  std::map<std::string, Json> Members;
};

class Reader {
public:
  explicit Reader(const std::string &text) : T(text) {}

  bool document(Json *out) {
    if (!value(out, 0))
      return false;
    skip();
    return P == T.size();
  }

private:
  void skip() {
    while (P < T.size() && std::isspace(static_cast<unsigned char>(T[P])))
      ++P;
  }
  bool literal(const char *word) {
    std::string w(word);
    if (T.compare(P, w.size(), w) != 0)
      return false;
    P += w.size();
    return true;
  }
  bool string(std::string *out) {
    if (P >= T.size() || T[P] != '"')
      return false;
    ++P;
    while (P < T.size() && T[P] != '"') {
      char c = T[P++];
      if (static_cast<unsigned char>(c) < 0x20)
        return false;
      if (c == '\\') {
        if (P >= T.size())
          return false;
        char e = T[P++];
        switch (e) {
        case '"':
        case '\\':
        case '/':
          out->push_back(e);
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 'b':
          out->push_back('\b');
          break;
        case 'f':
          out->push_back('\f');
          break;
        case 'u':
          if (P + 4 > T.size())
            return false;
          out->push_back('?'); // no rank table field needs more
          P += 4;
          break;
        default:
          return false;
        }
      } else {
        out->push_back(c);
      }
    }
    if (P >= T.size())
      return false;
    ++P;
    return true;
  }
  bool value(Json *out, int depth) {
    if (depth > 32)
      return false;
    skip();
    if (P >= T.size())
      return false;
    char c = T[P];
    if (c == '{') {
      ++P;
      out->Type = Json::Object;
      skip();
      if (P < T.size() && T[P] == '}') {
        ++P;
        return true;
      }
      while (true) {
        skip();
        std::string key;
        if (!string(&key))
          return false;
        skip();
        if (P >= T.size() || T[P] != ':')
          return false;
        ++P;
        Json member;
        if (!value(&member, depth + 1) || out->Members.count(key))
          return false;
        out->Members[key] = std::move(member);
        skip();
        if (P < T.size() && T[P] == ',') {
          ++P;
          continue;
        }
        if (P < T.size() && T[P] == '}') {
          ++P;
          return true;
        }
        return false;
      }
    }
    if (c == '[') {
      ++P;
      out->Type = Json::Array;
      skip();
      if (P < T.size() && T[P] == ']') {
        ++P;
        return true;
      }
      while (true) {
        Json item;
        if (!value(&item, depth + 1))
          return false;
        out->Items.push_back(std::move(item));
        skip();
        if (P < T.size() && T[P] == ',') {
          ++P;
          continue;
        }
        if (P < T.size() && T[P] == ']') {
          ++P;
          return true;
        }
        return false;
      }
    }
    if (c == '"') {
      out->Type = Json::String;
      return string(&out->Text);
    }
    if (literal("true") || literal("false")) {
      out->Type = Json::Bool;
      return true;
    }
    if (literal("null"))
      return true;
    size_t start = P;
    while (P < T.size() &&
           (std::isdigit(static_cast<unsigned char>(T[P])) ||
            std::string("+-.eE").find(T[P]) != std::string::npos))
      ++P;
    if (P == start)
      return false;
    out->Type = Json::Number;
    out->Text = T.substr(start, P - start);
    return true;
  }

  const std::string &T;
  size_t P = 0;
};

/// A field that must be a string.
const Json *field(const Json &object, const char *name, bool required,
                  std::string *why) {
  auto it = object.Members.find(name);
  if (it == object.Members.end()) {
    if (required)
      *why = std::string("\"") + name + "\" is missing";
    return nullptr;
  }
  if (it->second.Type != Json::String) {
    *why = std::string("\"") + name + "\" is not a string";
    return nullptr;
  }
  return &it->second;
}

bool decimal(const std::string &text, uint64_t limit, uint64_t *out) {
  if (text.empty() || text.size() > 10)
    return false;
  uint64_t value = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
    value = value * 10 + uint64_t(c - '0');
  }
  if (value > limit)
    return false;
  *out = value;
  return true;
}

bool ipAddress(const std::string &text) {
  unsigned char buffer[16];
  return inet_pton(AF_INET, text.c_str(), buffer) == 1 ||
         inet_pton(AF_INET6, text.c_str(), buffer) == 1;
}

} // namespace

bool parseRankTable(const std::string &text, RankTable *table,
                    std::string *why) {
  Json root;
  if (!Reader(text).document(&root) || root.Type != Json::Object) {
    *why = "not a JSON object";
    return false;
  }
  const Json *status = field(root, "status", true, why);
  const Json *version = status ? field(root, "version", true, why) : nullptr;
  const Json *serverCount =
      version ? field(root, "server_count", true, why) : nullptr;
  if (!serverCount)
    return false;
  if (status->Text != "completed") {
    *why = "status is \"" + status->Text + "\", not \"completed\"";
    return false;
  }
  if (version->Text != "1.0") {
    *why = "version \"" + version->Text + "\" is not 1.0";
    return false;
  }
  auto list = root.Members.find("server_list");
  if (list == root.Members.end() || list->second.Type != Json::Array) {
    *why = "\"server_list\" is missing or not an array";
    return false;
  }
  uint64_t servers = 0;
  if (!decimal(serverCount->Text, 1u << 20, &servers) || servers == 0 ||
      servers != list->second.Items.size()) {
    *why = "server_count \"" + serverCount->Text + "\" is not the " +
           std::to_string(list->second.Items.size()) +
           " servers of server_list";
    return false;
  }
  std::set<std::string> serverIds;
  std::vector<RankEntry> entries;
  for (size_t s = 0; s < list->second.Items.size(); ++s) {
    const Json &server = list->second.Items[s];
    if (server.Type != Json::Object) {
      *why = "a server is not an object";
      return false;
    }
    const Json *id = field(server, "server_id", true, why);
    if (!id)
      return false;
    if (id->Text.empty() || id->Text.size() > 64 ||
        !serverIds.insert(id->Text).second) {
      *why = "server_id \"" + id->Text + "\" is empty, too long or repeated";
      return false;
    }
    auto devices = server.Members.find("device");
    if (devices == server.Members.end() ||
        devices->second.Type != Json::Array || devices->second.Items.empty()) {
      *why = "server \"" + id->Text + "\" has no device list";
      return false;
    }
    for (const Json &device : devices->second.Items) {
      if (device.Type != Json::Object) {
        *why = "a device is not an object";
        return false;
      }
      const Json *deviceId = field(device, "device_id", true, why);
      const Json *rankId =
          deviceId ? field(device, "rank_id", true, why) : nullptr;
      if (!rankId)
        return false;
      why->clear();
      const Json *ip = field(device, "device_ip", false, why);
      const Json *port =
          why->empty() ? field(device, "device_port", false, why) : nullptr;
      if (!why->empty())
        return false;
      uint64_t deviceValue = 0, rankValue = 0, portValue = 0;
      if (!decimal(deviceId->Text, 1023, &deviceValue)) {
        *why = "device_id \"" + deviceId->Text + "\" is not a device number";
        return false;
      }
      if (!decimal(rankId->Text, 0xffffffffu, &rankValue)) {
        *why = "rank_id \"" + rankId->Text + "\" is not a number";
        return false;
      }
      if (ip && !ipAddress(ip->Text)) {
        *why = "device_ip \"" + ip->Text + "\" is not an IP address";
        return false;
      }
      if (!ip && servers > 1) {
        *why = "device_ip is required with more than one server";
        return false;
      }
      if (port && (!decimal(port->Text, 65535, &portValue) || portValue == 0)) {
        *why = "device_port \"" + port->Text + "\" is not a port";
        return false;
      }
      RankEntry entry;
      entry.Rank = static_cast<uint32_t>(rankValue);
      entry.Device = static_cast<int32_t>(deviceValue);
      entry.Server = static_cast<uint32_t>(s);
      entries.push_back(entry);
    }
  }
  table->Ranks.assign(entries.size(), RankEntry());
  std::vector<bool> seen(entries.size(), false);
  for (const RankEntry &entry : entries) {
    if (entry.Rank >= entries.size() || seen[entry.Rank]) {
      *why = "rank_id " + std::to_string(entry.Rank) +
             " is repeated or not below the " + std::to_string(entries.size()) +
             " ranks";
      return false;
    }
    seen[entry.Rank] = true;
    table->Ranks[entry.Rank] = entry;
  }
  return true;
}

} // namespace hccl
} // namespace mssim
