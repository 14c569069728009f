//===- json_io.h - Reading and writing the tools' JSON ----------*- C++ -*-===//
//
// Contract: every JSON document msledger writes (reports, SARIF logs,
// snapshots, job status files) is serialised by writeJson(), which passes
// each string, keys included, through validUtf8() (escape.h): a file name or
// program path that is not UTF-8 never makes a document its readers refuse.
//
// Every JSON document msledger reads (a report given to `merge`, a snapshot,
// a job status file) is read field by field through a JsonFields of the
// object at hand. It never throws and never guesses: an integer field must
// hold an exact integer in the range the caller names (1.5, 1e300, -1 for a
// size, 2^32+5 for a line are refused, never rounded, wrapped or clamped), a
// string field a string, an object an object; an absent field gives the
// caller's default. The first problem is kept as one line naming the
// document, the field's path in it and the value ("r.json: leaks[3].size:
// 1.5 is not a whole number from 0 to 9007199254740992"), and every later
// read answers the default, so a reader checks ok() once at the end.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_JSON_IO_H
#define MSLEDGER_RUNTIME_JSON_IO_H

#include <boost/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace msledger {

/// The largest integer a JSON number carries exactly (2^53).
constexpr int64_t kMaxExactJsonInteger = int64_t(1) << 53;

/// `value` as JSON text, every string valid UTF-8; ends with a newline.
std::string writeJson(const boost::json::value &value);

/// The fields of one JSON object, read with checks (above).
class JsonFields {
public:
  /// `where` names the object in messages: "FILE" or "FILE: leaks[3]".
  JsonFields(const boost::json::object &object, std::string where);
  /// The fields of `object`, a member of this one, named "where.name[i]"
  /// (index -1: no index). Shares this reader's error.
  JsonFields nested(const boost::json::object &object, const std::string &name,
                    long index = -1) const;

  /// The integer `name`, in [min, max]; `fallback` if absent (or null, when
  /// `nullable`).
  int64_t integer(const char *name, int64_t min, int64_t max, int64_t fallback,
                  bool nullable = false);
  /// A count or size: an integer from 0 to 2^53.
  uint64_t count(const char *name) {
    return static_cast<uint64_t>(integer(name, 0, kMaxExactJsonInteger, 0));
  }
  /// The number `name` (any JSON number), in [min, max]; `fallback` if
  /// absent (or null, when `nullable`).
  double real(const char *name, double min, double max, double fallback,
              bool nullable = false);
  /// The string `name`; "" if absent.
  std::string string(const char *name);
  /// The boolean `name`; `fallback` if absent.
  bool boolean(const char *name, bool fallback);
  /// The object `name`; null if absent.
  const boost::json::object *object(const char *name);
  /// The array `name`; null if absent.
  const boost::json::array *array(const char *name);

  /// Reads each entry of the array `name` through `each`, its fields named
  /// "name[i]", stopping at the first problem; an entry that is not an
  /// object fails with `notObject`. Nothing if the array is absent.
  void forEachObject(const char *name, const char *notObject,
                     const std::function<void(JsonFields &)> &each);

  /// Records a problem of the caller's own about field `name`.
  void fail(const char *name, const std::string &what);
  bool ok() const { return Error->empty(); }
  /// The first problem, "" if none.
  const std::string &error() const { return *Error; }
  const boost::json::object &fields() const { return *Object; }

private:
  JsonFields(const boost::json::object &object, std::string where,
             std::shared_ptr<std::string> error);
  const boost::json::value *field(const char *name, bool nullable = false);

  const boost::json::object *Object;
  std::string Where;
  bool Nested = false; // Where names a member, not the document
  std::shared_ptr<std::string> Error;
};

/// Parses `text` as JSON; null with *error ("FILE: not JSON (why)") if it
/// is not an object.
std::unique_ptr<boost::json::object> parseJsonObject(const std::string &text,
                                                     const std::string &file,
                                                     std::string *error);

} // namespace msledger

#endif
