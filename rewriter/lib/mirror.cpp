//===- mirror.cpp - A rewritten copy of the project -----------------------===//
#include "mirror.h"
#include "paths.h"
#include "text_file.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <boost/json.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

using namespace clang::tooling;

namespace msledger {

namespace {

/// Writes `text` to `path` unless it holds it already (a build in a mirror
/// must see only what changed as new), with the permissions of `like`.
/// *wrote says whether it wrote.
bool writeIfChanged(const std::string &path, const std::string &text,
                    const std::string &like, std::string *error,
                    bool *wrote = nullptr) {
  if (wrote)
    *wrote = false;
  std::string ignored;
  std::optional<std::string> existing = readTextFile(path, &ignored);
  if (existing && *existing == text)
    return true;
  if (!writeTextFileAtomically(path, text, error))
    return false;
  struct stat st;
  if (stat(like.c_str(), &st) == 0)
    chmod(path.c_str(), st.st_mode & 07777);
  if (wrote)
    *wrote = true;
  return true;
}

/// Copies `from` to `to` unless it holds the same bytes, keeping the
/// permissions and the modification time: an unchanged file must not look
/// newer than what a previous build made of it.
bool copyIfChanged(const std::string &from, const std::string &to,
                   std::string *error) {
  std::optional<std::string> text = readTextFile(from, error);
  bool wrote = false;
  if (!text || !writeIfChanged(to, *text, from, error, &wrote))
    return false;
  struct stat st;
  if (wrote && stat(from.c_str(), &st) == 0) {
    struct timespec times[2] = {st.st_atim, st.st_mtim};
    utimensat(AT_FDCWD, to.c_str(), times, 0);
  }
  return true;
}

} // namespace

std::string mirrored(const std::string &text, const std::string &root,
                     const std::string &mirror) {
  std::string out = text;
  std::string bare =
      root.substr(0, root.size() - 1); // without the trailing '/'
  for (size_t at = out.find(bare); at != std::string::npos;
       at = out.find(bare, at + mirror.size() - 1)) {
    char after = at + bare.size() < out.size() ? out[at + bare.size()] : '/';
    if (after != '/') {
      ++at;
      continue;
    }
    out.replace(at, bare.size(), mirror.substr(0, mirror.size() - 1));
  }
  return out;
}

bool writeMirrorFiles(const std::string &mirror,
                      const std::vector<std::string> &files,
                      const std::set<std::string> &failed,
                      const std::set<std::string> &projectFiles,
                      const std::vector<FileRewrite> &plan,
                      const std::string &root, std::set<std::string> *written,
                      llvm::function_ref<void(const std::string &)> note,
                      std::string *error) {
  std::map<std::string, const FileRewrite *> rewritten;
  for (const FileRewrite &planned : plan)
    rewritten[planned.path] = &planned;
  std::set<std::string> all = projectFiles;
  all.insert(files.begin(), files.end());
  for (const std::string &file : all) {
    if (isUnder(file, mirror) || failed.count(file))
      continue;
    if (!isUnder(file, root)) {
      // A generated source in an out-of-tree build, say: compiled where it
      // is (the copy's database names it there), like every file outside.
      note("msrewrite: note: " + file + " is outside the project root " + root +
           "; the copy compiles it where it is");
      continue;
    }
    std::string target = mirror + relativeTo(file, root);
    if (std::error_code ec = llvm::sys::fs::create_directories(
            llvm::sys::path::parent_path(target))) {
      *error = "cannot create the directory of " + target + ": " + ec.message();
      return false;
    }
    auto it = rewritten.find(file);
    if (it != rewritten.end()
            ? !writeIfChanged(target, it->second->after, file, error)
            : !copyIfChanged(file, target, error))
      return false;
    written->insert(file);
  }
  return true;
}

std::set<std::string> compileOutputs(const CompilationDatabase &database) {
  std::set<std::string> outputs;
  for (const CompileCommand &command : database.getAllCompileCommands()) {
    const std::vector<std::string> &args = command.CommandLine;
    for (size_t i = 0; i < args.size(); ++i) {
      std::string output;
      if (args[i] == "-o" && i + 1 < args.size())
        output = args[i + 1];
      else if (args[i].size() > 2 && args[i].rfind("-o", 0) == 0)
        output = args[i].substr(2);
      if (output.empty())
        continue;
      llvm::SmallString<256> path(output);
      if (llvm::sys::path::is_relative(path)) {
        path = command.Directory;
        llvm::sys::path::append(path, output);
      }
      outputs.insert(normalisePath(std::string(path.str())));
    }
  }
  return outputs;
}

bool isBinaryProduct(const std::string &path) {
  char magic[8] = {};
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  ssize_t got = read(fd, magic, sizeof magic);
  close(fd);
  return (got >= 4 && memcmp(magic,
                             "\x7f"
                             "ELF",
                             4) == 0) ||
         (got == 8 && memcmp(magic, "!<arch>\n", 8) == 0);
}

bool copyRestOfProject(const std::string &root, const std::string &mirror,
                       const std::string &databaseDir,
                       const std::set<std::string> &written,
                       const std::set<std::string> &outputs,
                       std::string *error) {
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(root, ec, false), end;
       it != end && !ec; it.increment(ec)) {
    std::string path = it->path();
    llvm::StringRef name = llvm::sys::path::filename(path);
    llvm::sys::fs::file_type type = it->type();
    if (type == llvm::sys::fs::file_type::directory_file) {
      if (path + "/" == mirror || path == databaseDir || name == ".git" ||
          name == ".hg" || name == ".svn" ||
          llvm::sys::fs::exists(path + "/CMakeCache.txt"))
        it.no_push();
      continue;
    }
    std::string target = mirror + relativeTo(path, root);
    if (written.count(path) || outputs.count(path) || isUnder(path, mirror) ||
        path == databaseDir + "/compile_commands.json" ||
        (type == llvm::sys::fs::file_type::regular_file &&
         isBinaryProduct(path)))
      continue;
    if (std::error_code made = llvm::sys::fs::create_directories(
            llvm::sys::path::parent_path(target))) {
      *error =
          "cannot create the directory of " + target + ": " + made.message();
      return false;
    }
    if (type == llvm::sys::fs::file_type::symlink_file) {
      char link[4096];
      ssize_t length = readlink(path.c_str(), link, sizeof link - 1);
      struct stat st;
      if (length > 0 && lstat(target.c_str(), &st) != 0) {
        link[length] = '\0';
        if (symlink(link, target.c_str()) != 0) {
          *error = "cannot link " + target + ": " + strerror(errno);
          return false;
        }
      }
      continue;
    }
    if (type == llvm::sys::fs::file_type::regular_file &&
        !copyIfChanged(path, target, error))
      return false;
  }
  if (ec) {
    *error = "cannot read " + root + ": " + ec.message();
    return false;
  }
  return true;
}

bool writeMirror(const CompilationDatabase &database,
                 const std::vector<std::string> &files,
                 const std::set<std::string> &failed,
                 const std::set<std::string> &projectFiles,
                 const std::vector<FileRewrite> &plan, const std::string &root,
                 const std::string &mirror, const std::string &databaseDir,
                 llvm::function_ref<void(const std::string &)> note,
                 std::string *error) {
  std::set<std::string> written;
  if (!writeMirrorFiles(mirror, files, failed, projectFiles, plan, root,
                        &written, note, error) ||
      !copyRestOfProject(root, mirror, databaseDir, written,
                         compileOutputs(database), error))
    return false;
  boost::json::array commands;
  for (const std::string &file : files) {
    if (failed.count(file))
      continue;
    for (const CompileCommand &command : database.getCompileCommands(file)) {
      boost::json::array arguments;
      for (const std::string &argument : command.CommandLine)
        arguments.emplace_back(mirrored(argument, root, mirror));
      commands.push_back(boost::json::object{
          {"directory", mirrored(command.Directory, root, mirror)},
          {"file", mirrored(command.Filename, root, mirror)},
          {"arguments", std::move(arguments)}});
    }
  }
  return writeTextFileAtomically(mirror + "compile_commands.json",
                                 boost::json::serialize(commands) + "\n",
                                 error);
}

} // namespace msledger
