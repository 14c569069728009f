//===- compile_db.cpp - Reading compile_commands.json as it comes ---------===//
#include "compile_db.h"

#include "paths.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

#include <boost/json.hpp>

namespace json = boost::json;
using clang::tooling::CompileCommand;

namespace msledger {

bool isGccOnlyFlag(const std::string &flag) {
  static const char *const prefixes[] = {"-fno-tree-",
                                         "-ftree-",
                                         "-fconserve-stack",
                                         "-fno-ipa-",
                                         "-fipa-",
                                         "-fcond-mismatch",
                                         "-fno-var-tracking",
                                         "-fvar-tracking",
                                         "-fno-allow-store-data-races",
                                         "-mabi=lp64",
                                         "-fmacro-prefix-map",
                                         "-fno-semantic-interposition",
                                         "-mno-fp-ret-in-387",
                                         "-mpreferred-stack-boundary",
                                         "-mindirect-branch",
                                         "-fno-gcse",
                                         "-fdiagnostics-color=auto",
                                         "-fdiagnostics-urls",
                                         "-flto=auto",
                                         "-flto-partition",
                                         "-fno-printf-return-value",
                                         "-Wno-psabi"};
  for (const char *prefix : prefixes)
    if (flag.rfind(prefix, 0) == 0)
      return true;
  return false;
}

std::unique_ptr<CompileDatabase>
CompileDatabase::load(const std::string &buildDir, std::string *error) {
  std::string path = normalisePath(buildDir + "/compile_commands.json");
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    *error =
        path +
        ": cannot read the compile database: " + buffer.getError().message() +
        " (configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or use bear)";
    return nullptr;
  }
  boost::system::error_code ec;
  json::value root = json::parse((*buffer)->getBuffer().str(), ec);
  if (ec) {
    *error = path + ": not valid JSON: " + ec.message();
    return nullptr;
  }
  const json::array *entries = root.if_array();
  if (!entries) {
    *error = path + ": a compile database is a JSON array of commands";
    return nullptr;
  }
  std::string dbDir = std::string(llvm::sys::path::parent_path(path));
  auto db = std::unique_ptr<CompileDatabase>(new CompileDatabase);
  llvm::BumpPtrAllocator allocator;
  llvm::StringSaver saver(allocator);
  for (size_t index = 0; index < entries->size(); ++index) {
    std::string where = path + ": entry " + std::to_string(index + 1);
    const json::object *entry = (*entries)[index].if_object();
    const json::string *directory =
        entry ? entry->if_contains("directory")
                    ? (*entry).at("directory").if_string()
                    : nullptr
              : nullptr;
    const json::string *file = entry && entry->if_contains("file")
                                   ? entry->at("file").if_string()
                                   : nullptr;
    if (!entry || !directory || !file) {
      *error = where + ": needs \"directory\" and \"file\" strings";
      return nullptr;
    }
    llvm::SmallString<256> dir(directory->c_str());
    if (llvm::sys::path::is_relative(dir)) {
      llvm::SmallString<256> resolved(dbDir);
      llvm::sys::path::append(resolved, dir);
      dir = resolved;
    }
    std::string absoluteDir = normalisePath(std::string(dir.str()));
    llvm::SmallString<256> filePath(file->c_str());
    if (llvm::sys::path::is_relative(filePath)) {
      llvm::SmallString<256> resolved(absoluteDir);
      llvm::sys::path::append(resolved, filePath);
      filePath = resolved;
    }
    llvm::SmallVector<const char *, 64> argv;
    if (const json::value *arguments = entry->if_contains("arguments")) {
      const json::array *list = arguments->if_array();
      if (!list) {
        *error = where + ": \"arguments\" must be an array of strings";
        return nullptr;
      }
      for (const json::value &argument : *list) {
        if (!argument.is_string()) {
          *error = where + ": \"arguments\" must be an array of strings";
          return nullptr;
        }
        argv.push_back(saver.save(argument.as_string().c_str()).data());
      }
    } else if (const json::value *command = entry->if_contains("command")) {
      if (!command->is_string()) {
        *error = where + ": \"command\" must be a string";
        return nullptr;
      }
      llvm::cl::TokenizeGNUCommandLine(command->as_string().c_str(), saver,
                                       argv);
    } else {
      *error = where + ": needs \"arguments\" or \"command\"";
      return nullptr;
    }
    if (argv.empty()) {
      *error = where + ": the command is empty";
      return nullptr;
    }
    // Response files are relative to the command's directory.
    llvm::cl::ExpansionContext expander(allocator,
                                        llvm::cl::TokenizeGNUCommandLine);
    expander.setCurrentDir(absoluteDir);
    if (llvm::Error failed = expander.expandResponseFiles(argv)) {
      *error = where + ": " + llvm::toString(std::move(failed));
      return nullptr;
    }
    std::vector<std::string> command;
    for (const char *argument : argv) {
      std::string flag = argument;
      if (isGccOnlyFlag(flag)) {
        db->Dropped.insert(flag);
        continue;
      }
      command.push_back(flag);
    }
    std::string absoluteFile = normalisePath(std::string(filePath.str()));
    db->Commands[absoluteFile].emplace_back(absoluteDir, absoluteFile, command,
                                            "");
  }
  return db;
}

std::vector<CompileCommand>
CompileDatabase::getCompileCommands(llvm::StringRef file) const {
  auto it = Commands.find(normalisePath(file.str()));
  return it == Commands.end() ? std::vector<CompileCommand>() : it->second;
}

std::vector<std::string> CompileDatabase::getAllFiles() const {
  std::vector<std::string> files;
  for (const auto &entry : Commands)
    files.push_back(entry.first);
  return files;
}

std::vector<CompileCommand> CompileDatabase::getAllCompileCommands() const {
  std::vector<CompileCommand> all;
  for (const auto &entry : Commands)
    all.insert(all.end(), entry.second.begin(), entry.second.end());
  return all;
}

std::vector<CompileCommand>
SingleCommandDatabase::getCompileCommands(llvm::StringRef file) const {
  if (normalisePath(file.str()) != Command.Filename)
    return {};
  return {Command};
}

} // namespace msledger
