//===- installation.cpp - Where msrewrite finds what it uses --------------===//
#include "installation.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace msledger {

namespace {

Installation locate() {
  std::string self = llvm::sys::fs::getMainExecutable(
      "msrewrite", reinterpret_cast<void *>(&Installation::get));
  llvm::SmallString<256> prefix(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(self)));
  auto under = [&](std::initializer_list<llvm::StringRef> parts) {
    llvm::SmallString<256> path(prefix);
    for (llvm::StringRef part : parts)
      llvm::sys::path::append(path, part);
    return std::string(path.str());
  };
  Installation result;
  std::string resourceDir = under(
      {"lib", "clang", llvm::sys::path::filename(MSLEDGER_CLANG_RESOURCE_DIR)});
  result.resourceDir = llvm::sys::fs::exists(resourceDir + "/include/stddef.h")
                           ? resourceDir
                           : MSLEDGER_CLANG_RESOURCE_DIR;
  if (llvm::sys::fs::exists(under({"include", "msledger", "track.h"})) &&
      llvm::sys::fs::exists(under({"share", "msledger", "cann.json"}))) {
    result.catalog = under({"share", "msledger", "cann.json"});
    result.includeDirs = {under({"include"})};
    result.libraryDir = under({"lib"});
  } else {
    result.catalog = MSLEDGER_CATALOG_PATH;
    result.includeDirs = {MSLEDGER_INCLUDE_DIR_LIST};
    result.libraryDir = MSLEDGER_BUILD_LIBRARY_DIR;
  }
  return result;
}

} // namespace

const Installation &Installation::get() {
  static const Installation found = locate();
  return found;
}

std::vector<std::string> Installation::compileFlags() const {
  std::vector<std::string> flags;
  for (const std::string &dir : includeDirs)
    flags.push_back("-I" + dir);
  flags.push_back("-include");
  flags.push_back("msledger/track.h");
  return flags;
}

std::vector<std::string> Installation::linkFlags() const {
  return {"-L" + libraryDir, "-Wl,-rpath," + libraryDir,
          "-Wl,--push-state,--no-as-needed", "-lmsledger", "-Wl,--pop-state"};
}

} // namespace msledger
