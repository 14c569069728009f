//===- json_io.cpp - Reading and writing the tools' JSON ------------------===//
#include "json_io.h"

#include "escape.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace json = boost::json;

namespace msledger {

namespace {

/// Makes every string in `value` (keys too) valid UTF-8, in place.
void makeValidUtf8(json::value &value) {
  if (json::string *text = value.if_string()) {
    if (!isValidUtf8(*text))
      *text = validUtf8(*text);
  } else if (json::array *items = value.if_array()) {
    for (json::value &item : *items)
      makeValidUtf8(item);
  } else if (json::object *members = value.if_object()) {
    bool keysValid = true;
    for (auto &member : *members) {
      keysValid = keysValid && isValidUtf8(member.key());
      makeValidUtf8(member.value());
    }
    if (!keysValid) {
      json::object fixed;
      for (auto &member : *members)
        fixed[validUtf8(member.key())] = std::move(member.value());
      *members = std::move(fixed);
    }
  }
}

/// Whether every string in `value` (keys too) is valid UTF-8.
bool allValidUtf8(const json::value &value) {
  if (const json::string *text = value.if_string())
    return isValidUtf8(*text);
  if (const json::array *items = value.if_array()) {
    for (const json::value &item : *items)
      if (!allValidUtf8(item))
        return false;
  } else if (const json::object *members = value.if_object()) {
    for (const auto &member : *members)
      if (!isValidUtf8(member.key()) || !allValidUtf8(member.value()))
        return false;
  }
  return true;
}

/// A value as a message quotes it: short, and printable.
std::string quote(const json::value &value) {
  std::string text;
  if (value.is_double()) {
    // The shortest spelling that reads back the same: 1.5, 1e+300.
    char digits[32];
    for (int precision = 1; precision <= 17; ++precision) {
      snprintf(digits, sizeof digits, "%.*g", precision, value.get_double());
      if (strtod(digits, nullptr) == value.get_double())
        break;
    }
    text = digits;
  } else {
    text = json::serialize(value);
  }
  if (text.size() > 40)
    text = text.substr(0, 37) + "...";
  return validUtf8(text);
}

} // namespace

std::string writeJson(const json::value &value) {
  if (allValidUtf8(value))
    return json::serialize(value) + "\n";
  json::value copy = value;
  makeValidUtf8(copy);
  return json::serialize(copy) + "\n";
}

JsonFields::JsonFields(const json::object &object, std::string where)
    : JsonFields(object, std::move(where), std::make_shared<std::string>()) {}

JsonFields::JsonFields(const json::object &object, std::string where,
                       std::shared_ptr<std::string> error)
    : Object(&object), Where(std::move(where)), Error(std::move(error)) {}

JsonFields JsonFields::nested(const json::object &object,
                              const std::string &name, long index) const {
  std::string where = Where + (Nested ? "." : ": ") + name;
  if (index >= 0)
    where += "[" + std::to_string(index) + "]";
  JsonFields fields(object, where, Error);
  fields.Nested = true;
  return fields;
}

void JsonFields::fail(const char *name, const std::string &what) {
  if (!Error->empty())
    return;
  *Error = Where + (Nested ? "." : ": ") + name + ": " + what;
}

const json::value *JsonFields::field(const char *name, bool nullable) {
  if (!ok())
    return nullptr;
  const json::value *value = Object->if_contains(name);
  if (!value || (nullable && value->is_null()))
    return nullptr;
  return value;
}

int64_t JsonFields::integer(const char *name, int64_t min, int64_t max,
                            int64_t fallback, bool nullable) {
  const json::value *value = field(name, nullable);
  if (!value)
    return fallback;
  // Exact: an int64 or uint64 as parsed, or a double with no fraction
  // within 2^53 (beyond it a double is not one integer but a range).
  bool exact = false;
  int64_t number = 0;
  if (value->is_int64()) {
    exact = true;
    number = value->get_int64();
  } else if (value->is_uint64()) {
    exact = value->get_uint64() <= static_cast<uint64_t>(INT64_MAX);
    number = static_cast<int64_t>(value->get_uint64());
  } else if (value->is_double()) {
    double real = value->get_double();
    // Below 2^53 strictly: 9007199254740993.0 reads as the double 2^53.
    exact = std::isfinite(real) && std::trunc(real) == real &&
            std::fabs(real) < static_cast<double>(kMaxExactJsonInteger);
    number = exact ? static_cast<int64_t>(real) : 0;
  }
  if (!exact || number < min || number > max) {
    fail(name, quote(*value) + " is not a whole number from " +
                   std::to_string(min) + " to " + std::to_string(max) +
                   (nullable ? " (or null)" : ""));
    return fallback;
  }
  return number;
}

double JsonFields::real(const char *name, double min, double max,
                        double fallback, bool nullable) {
  const json::value *value = field(name, nullable);
  if (!value)
    return fallback;
  double number = value->is_number() ? value->to_number<double>() : 0;
  if (!value->is_number() || !std::isfinite(number) || number < min ||
      number > max) {
    fail(name, quote(*value) + " is not a number from " +
                   quote(json::value(min)) + " to " + quote(json::value(max)) +
                   (nullable ? " (or null)" : ""));
    return fallback;
  }
  return number;
}

std::string JsonFields::string(const char *name) {
  const json::value *value = field(name);
  if (!value)
    return "";
  if (!value->is_string()) {
    fail(name, quote(*value) + " is not a string");
    return "";
  }
  return std::string(value->get_string());
}

bool JsonFields::boolean(const char *name, bool fallback) {
  const json::value *value = field(name);
  if (!value)
    return fallback;
  if (!value->is_bool()) {
    fail(name, quote(*value) + " is not true or false");
    return fallback;
  }
  return value->get_bool();
}

const json::object *JsonFields::object(const char *name) {
  const json::value *value = field(name, /*nullable=*/true);
  if (value && !value->is_object()) {
    fail(name, quote(*value) + " is not an object");
    return nullptr;
  }
  return value ? &value->get_object() : nullptr;
}

const json::array *JsonFields::array(const char *name) {
  const json::value *value = field(name);
  if (value && !value->is_array()) {
    fail(name, quote(*value) + " is not an array");
    return nullptr;
  }
  return value ? &value->get_array() : nullptr;
}

void JsonFields::forEachObject(const char *name, const char *notObject,
                               const std::function<void(JsonFields &)> &each) {
  const json::array *entries = array(name);
  for (size_t i = 0; entries && i < entries->size() && ok(); ++i) {
    if (!(*entries)[i].is_object()) {
      fail(name, notObject);
      return;
    }
    JsonFields entry = nested((*entries)[i].get_object(), name, i);
    each(entry);
  }
}

std::unique_ptr<json::object> parseJsonObject(const std::string &text,
                                              const std::string &file,
                                              std::string *error) {
  boost::system::error_code parseError;
  json::value value = json::parse(text, parseError);
  if (parseError) {
    *error = file + ": not JSON (" + parseError.message() + ")";
    return nullptr;
  }
  if (!value.is_object()) {
    *error = file + ": not a JSON object";
    return nullptr;
  }
  return std::make_unique<json::object>(std::move(value.get_object()));
}

} // namespace msledger
