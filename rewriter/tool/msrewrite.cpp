//===- msrewrite.cpp - Rewrites catalog calls to carry their sites
//---------===//
//
// msrewrite -p BUILD_DIR [options] FILE...   (or --all for every file)
//
// Every call to a catalog API in the given translation units -- and in the
// project's headers they include -- becomes a call to its tracking wrapper
// with the call's site (msledger/track.h). Files are rewritten only under the
// project root (--root, default the current directory), each written to a
// temporary and renamed. See rewriter/README.md.
//
//===----------------------------------------------------------------------===//
#include "catalog.h"
#include "collect.h"
#include "compile_db.h"
#include "instrument.h"
#include "launch.h"
#include "text_file.h"
#include "wrappers.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h" // ArgumentsAdjustingCompilations
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <boost/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace clang;
using namespace clang::tooling;
using namespace msledger;
namespace cl = llvm::cl;

#ifndef MSREWRITE_VERSION
#define MSREWRITE_VERSION "0.1.0"
#endif

static cl::OptionCategory Category("msrewrite options");
static cl::opt<std::string>
    BuildPath("p", cl::desc("Build directory with compile_commands.json"),
              cl::value_desc("build-dir"), cl::cat(Category));
static cl::list<std::string> Sources(cl::Positional, cl::desc("[<file> ...]"),
                                     cl::cat(Category));
static cl::list<std::string>
    ExtraArgs("extra-arg",
              cl::desc("Extra argument to append to the compiler command"),
              cl::cat(Category));
static cl::list<std::string> ExtraArgsBefore(
    "extra-arg-before",
    cl::desc("Extra argument to prepend to the compiler command"),
    cl::cat(Category));
static cl::opt<bool> InPlace("i", cl::desc("Rewrite the files in place"),
                             cl::cat(Category));
static cl::opt<std::string>
    OutputDir("o",
              cl::desc("Write a rewritten mirror of the project, with its "
                       "compile database, under this directory; leave the "
                       "originals alone"),
              cl::value_desc("dir"), cl::cat(Category));
static cl::opt<bool>
    Diff("diff", cl::desc("Print a unified diff of the rewrite; write nothing"),
         cl::cat(Category));
static cl::opt<bool> Revert(
    "revert",
    cl::desc(
        "Restore instrumented files under the root to their original bytes"),
    cl::cat(Category));
static cl::opt<bool>
    RewriteAll("all", cl::desc("Rewrite every file of the compile database"),
               cl::cat(Category));
static cl::list<std::string>
    CatalogFiles("catalog",
                 cl::desc("Add the families and functions of this catalog "
                          "(JSON) to the built-in one: a project's own "
                          "allocators"),
                 cl::value_desc("file"), cl::cat(Category));
static cl::opt<std::string> Root(
    "root",
    cl::desc("The project root: only files under it are touched (default: .)"),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<std::string>
    ExportSites("export-sites",
                cl::desc("Write the sites manifest (JSON) to this file"),
                cl::value_desc("file"), cl::cat(Category));
static cl::opt<unsigned>
    Jobs("j", cl::desc("Translation units parsed in parallel (default 1)"),
         cl::init(1), cl::cat(Category));
static cl::opt<bool> Launch(
    "launch",
    cl::desc("Compiler launcher: msrewrite --launch [options] -- COMPILER "
             "ARGS... compiles a rewritten copy of the one source (and links "
             "with the ledger); see rewriter/README.md"),
    cl::cat(Category));
static cl::opt<std::string> KeepDir(
    "keep-dir",
    cl::desc("With --launch: keep each source's rewritten copy under this "
             "directory (default: a private temporary, removed after)"),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<bool> PrintBuildFlags(
    "print-build-flags",
    cl::desc(
        "Print the compiler and linker flags rewritten code needs, and exit"),
    cl::cat(Category));

namespace {

std::mutex OutputMutex;

void message(const std::string &text) {
  std::lock_guard<std::mutex> lock(OutputMutex);
  llvm::errs() << text << "\n";
}

/// `path` relative to `root` (which ends in '/'); a path outside it as it is.
std::string relativeTo(const std::string &path, const std::string &root) {
  return isUnder(path, root) ? path.substr(root.size()) : path;
}

/// Where the tool finds its catalog, msledger's headers and library, and
/// clang's builtin headers. An installed msrewrite (PREFIX/bin) uses
/// PREFIX/share/msledger/cann.json, PREFIX/include and PREFIX/lib, and
/// PREFIX/lib/clang/N when that holds builtin headers; run from the build tree
/// it uses the paths configured there. So a moved or copied install works.
struct Installation {
  std::string Catalog;
  std::string ResourceDir;
  std::vector<std::string> IncludeDirs;
  std::string LibraryDir;

  static const Installation &get() {
    static const Installation found = locate();
    return found;
  }

  /// The flags compiling rewritten files needs.
  std::vector<std::string> compileFlags() const {
    std::vector<std::string> flags;
    for (const std::string &dir : IncludeDirs)
      flags.push_back("-I" + dir);
    flags.push_back("-include");
    flags.push_back("msledger/track.h");
    return flags;
  }
  /// The flags linking them needs: libmsledger, whatever the link order.
  std::vector<std::string> linkFlags() const {
    return {"-L" + LibraryDir, "-Wl,-rpath," + LibraryDir,
            "-Wl,--push-state,--no-as-needed", "-lmsledger", "-Wl,--pop-state"};
  }

private:
  static Installation locate() {
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
    std::string resourceDir =
        under({"lib", "clang",
               llvm::sys::path::filename(MSLEDGER_CLANG_RESOURCE_DIR)});
    result.ResourceDir =
        llvm::sys::fs::exists(resourceDir + "/include/stddef.h")
            ? resourceDir
            : MSLEDGER_CLANG_RESOURCE_DIR;
    if (llvm::sys::fs::exists(under({"include", "msledger", "track.h"})) &&
        llvm::sys::fs::exists(under({"share", "msledger", "cann.json"}))) {
      result.Catalog = under({"share", "msledger", "cann.json"});
      result.IncludeDirs = {under({"include"})};
      result.LibraryDir = under({"lib"});
    } else {
      result.Catalog = MSLEDGER_CATALOG_PATH;
      result.IncludeDirs = {MSLEDGER_INCLUDE_DIR_LIST};
      result.LibraryDir = MSLEDGER_BUILD_LIBRARY_DIR;
    }
    return result;
  }
};

class CollectAction : public ASTFrontendAction {
public:
  CollectAction(const Catalog &catalog, const std::string &root,
                TranslationUnitSites &out, bool *failed, bool quiet)
      : Catalog_(catalog), Root(root), Out(out), Failed(failed), Quiet(quiet) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return makeCollector(Catalog_, Root, Out);
  }
  bool BeginSourceFileAction(CompilerInstance &compiler) override {
    if (Quiet) // no "N errors generated." either
      compiler.setVerboseOutputStream(
          std::make_unique<llvm::raw_null_ostream>());
    compiler.getPreprocessor().addPPCallbacks(makeSkippedBranchReporter(
        Catalog_, Root, compiler.getSourceManager(), Out));
    return true;
  }
  void EndSourceFileAction() override {
    if (getCompilerInstance().getDiagnostics().hasErrorOccurred())
      *Failed = true;
    recordProjectFiles(getCompilerInstance().getSourceManager(), Root, Out);
  }

private:
  const Catalog &Catalog_;
  std::string Root;
  TranslationUnitSites &Out;
  bool *Failed;
  bool Quiet;
};

/// Runs the collector over one file; false if it does not compile.
/// Clang's diagnostics go to `diagnostics` if given, else to stderr.
bool collect(const CompilationDatabase &database, const std::string &file,
             const Catalog &catalog, const std::string &root,
             TranslationUnitSites &out, DiagnosticConsumer *diagnostics) {
  ClangTool tool(database, {file});
  if (diagnostics) {
    tool.setDiagnosticConsumer(diagnostics);
    tool.setPrintErrorMessage(false);
  }
  tool.appendArgumentsAdjuster(getClangStripOutputAdjuster());
  // A parse must not write the build's dependency files.
  tool.appendArgumentsAdjuster(getClangStripDependencyFileAdjuster());
  tool.appendArgumentsAdjuster(getClangSyntaxOnlyAdjuster());
  // An explicit resource directory (see Installation): builtin headers work
  // from any install and any directory.
  const Installation &installation = Installation::get();
  std::vector<std::string> extra = {"-resource-dir=" + installation.ResourceDir,
                                    "-w", "-Wno-unknown-warning-option"};
  // Rewritten files are compiled with -include msledger/track.h.
  std::vector<std::string> flags = installation.compileFlags();
  extra.insert(extra.end(), flags.begin(), flags.end());
  tool.appendArgumentsAdjuster(
      getInsertArgumentAdjuster(extra, ArgumentInsertPosition::END));
  bool failed = false;
  struct Factory : FrontendActionFactory {
    const Catalog &C;
    const std::string &R;
    TranslationUnitSites &O;
    bool *F;
    bool Q;
    Factory(const Catalog &c, const std::string &r, TranslationUnitSites &o,
            bool *f, bool q)
        : C(c), R(r), O(o), F(f), Q(q) {}
    std::unique_ptr<FrontendAction> create() override {
      return std::make_unique<CollectAction>(C, R, O, F, Q);
    }
  } factory(catalog, root, out, &failed, diagnostics != nullptr);
  int status = tool.run(&factory);
  return status == 0 && !failed;
}

/// A file's rewrite, planned before anything is written.
struct Planned {
  std::string path, relative, before, after;
  std::vector<CallSite> sites;
};

/// `path` with the root's prefix replaced by the mirror's.
std::string mirrored(const std::string &path, const std::string &root,
                     const std::string &mirror) {
  std::string out = path;
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

/// Every project file the translation units read, rewritten or as it is, at
/// the same place under `mirror` (absolute, with a trailing '/'). `written`
/// gets the files' original paths.
bool writeMirrorFiles(const std::string &mirror,
                      const std::vector<std::string> &files,
                      const std::set<std::string> &failed,
                      const std::set<std::string> &projectFiles,
                      const std::vector<Planned> &plan, const std::string &root,
                      std::set<std::string> *written, std::string *error) {
  std::map<std::string, const Planned *> rewritten;
  for (const Planned &planned : plan)
    rewritten[planned.path] = &planned;
  std::set<std::string> all = projectFiles;
  all.insert(files.begin(), files.end());
  for (const std::string &file : all) {
    if (isUnder(file, mirror) || failed.count(file))
      continue;
    if (!isUnder(file, root)) {
      // A generated source in an out-of-tree build, say: compiled where it
      // is (the copy's database names it there), like every file outside.
      message("msrewrite: note: " + file + " is outside the project root " +
              root + "; the copy compiles it where it is");
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

/// The objects a database's commands write (-o), absolute.
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

/// Whether a file is a build product: an ELF object, program or library, or
/// a static archive. These are never copied into a mirror, whose own build
/// makes them (an old one copied next to a rewritten source could pass for
/// up to date, or replace the mirror's instrumented build).
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

/// -o DIR: the rest of the project -- build files, scripts, data -- so that
/// the mirror builds the way the original does. Leaves out DIR itself, the
/// database's directory, version-control metadata, CMake build trees, the
/// objects the database's commands write and other build products.
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

/// -o DIR: the mirror's files and a compile database that builds them there
/// with the same commands.
bool writeMirror(const CompilationDatabase &database,
                 const std::vector<std::string> &files,
                 const std::set<std::string> &failed,
                 const std::set<std::string> &projectFiles,
                 const std::vector<Planned> &plan, const std::string &root,
                 std::string *error) {
  std::string mirror = normalisePath(OutputDir) + "/";
  std::set<std::string> written;
  if (!writeMirrorFiles(mirror, files, failed, projectFiles, plan, root,
                        &written, error) ||
      !copyRestOfProject(root, mirror,
                         BuildPath.empty() ? "" : normalisePath(BuildPath),
                         written, compileOutputs(database), error))
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

int revertAll(const std::string &root) {
  unsigned reverted = 0, inexact = 0, failures = 0;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(root, ec), end;
       it != end && !ec; it.increment(ec)) {
    std::string path = it->path();
    if (it->type() == llvm::sys::fs::file_type::directory_file &&
        isMsledgerFile(path + "/.", root)) {
      it.no_push(); // msledger's install, build tree or kept copies
      continue;
    }
    if (it->type() != llvm::sys::fs::file_type::regular_file ||
        isMsledgerFile(path, root))
      continue;
    std::string error;
    std::optional<std::string> text = readTextFile(path, &error);
    if (!text || !isInstrumented(*text))
      continue;
    bool exact = false;
    std::optional<std::string> original = revert(*text, &exact);
    if (!original || !writeTextFileAtomically(path, *original, &error)) {
      message("msrewrite: error: cannot revert " + path +
              (error.empty() ? "" : ": " + error));
      ++failures;
      continue;
    }
    ++reverted;
    if (!exact) {
      ++inexact;
      message("msrewrite: warning: " + path +
              " was edited after it was rewritten: the edits are kept, so it "
              "differs from the original");
    }
  }
  message("msrewrite: reverted " + std::to_string(reverted) + " file(s)" +
          (inexact ? ", " + std::to_string(inexact) + " edited since" : "") +
          (failures ? ", " + std::to_string(failures) + " failed" : ""));
  return failures ? 1 : 0;
}

/// The built-in catalog with the --catalog files merged in; `additions` gets
/// the names of their functions.
std::optional<Catalog> loadCatalogs(std::set<std::string> *additions,
                                    std::string *error) {
  std::optional<Catalog> catalog =
      Catalog::load(Installation::get().Catalog, error);
  if (!catalog)
    return std::nullopt;
  // A project's own allocators and handles, added to the built-in catalog.
  for (const std::string &path : CatalogFiles) {
    std::optional<Catalog> added = Catalog::load(path, error);
    if (!added || !catalog->merge(*added, path, error))
      return std::nullopt;
    for (const Function &function : added->functions())
      additions->insert(function.name);
  }
  return catalog;
}

/// What parsing and planning the translation units found.
struct Rewrite {
  std::vector<Planned> plan; // the files to write, with their new text
  std::set<std::string> failedFiles, projectFiles;
  std::set<std::string> notes;
  unsigned outside = 0, already = 0, sites = 0;
};

/// Parses `files`, -j at a time, and plans the rewrite of every project file
/// they read. Writes nothing.
Rewrite planRewrite(const CompilationDatabase &database,
                    const std::vector<std::string> &files,
                    const Catalog &catalog,
                    const std::set<std::string> &additions,
                    const std::string &root,
                    DiagnosticConsumer *diagnostics = nullptr) {
  std::vector<TranslationUnitSites> results(files.size());
  std::vector<char> ok(files.size(), 0);
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < files.size();)
      ok[i] =
          collect(database, files[i], catalog, root, results[i], diagnostics);
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < std::max(1u, unsigned(Jobs)); ++t)
    threads.emplace_back(worker);
  worker();
  for (auto &thread : threads)
    thread.join();

  Rewrite rewrite;
  std::map<std::string, std::vector<CallSite>> sites;
  std::map<std::string, std::string> contents;
  std::map<std::string, std::set<unsigned>> unrewritable;
  for (size_t i = 0; i < files.size(); ++i) {
    if (!ok[i]) {
      rewrite.failedFiles.insert(normalisePath(files[i]));
      continue;
    }
    for (auto &entry : results[i].sites)
      sites[entry.first].insert(sites[entry.first].end(), entry.second.begin(),
                                entry.second.end());
    for (auto &entry : results[i].unrewritable)
      unrewritable[entry.first].insert(entry.second.begin(),
                                       entry.second.end());
    contents.insert(results[i].contents.begin(), results[i].contents.end());
    rewrite.notes.insert(results[i].notes.begin(), results[i].notes.end());
    rewrite.outside += results[i].outsideRoot;
    rewrite.projectFiles.insert(results[i].projectFiles.begin(),
                                results[i].projectFiles.end());
  }
  // Calls of the project's functions that reach a catalog call, in any
  // translation unit parsed: wrapped, for call chains.
  std::set<std::string> callsCatalog;
  std::set<std::pair<std::string, std::string>> edges;
  std::vector<const HelperCall *> helperCalls;
  for (size_t i = 0; i < files.size(); ++i) {
    if (!ok[i])
      continue;
    callsCatalog.insert(results[i].callsCatalog.begin(),
                        results[i].callsCatalog.end());
    edges.insert(results[i].calls.begin(), results[i].calls.end());
    for (const HelperCall &call : results[i].helperCalls)
      helperCalls.push_back(&call);
  }
  for (const HelperCall *call :
       reachingHelperCalls(helperCalls, callsCatalog, edges))
    sites[call->file].push_back(call->site);
  for (const std::string &file : files) {
    std::string error;
    std::optional<std::string> text = readTextFile(file, &error);
    if (!rewrite.failedFiles.count(file) && text && isInstrumented(*text)) {
      ++rewrite.already;
      message(
          "msrewrite: note: " + file +
          " is already instrumented; left as it is (--revert, then rewrite, to "
          "pick up calls added since)");
    }
  }

  for (auto &entry : sites) {
    const std::string &path = entry.first;
    if (rewrite.failedFiles.count(path))
      continue;
    const std::string &before = contents[path];
    if (isInstrumented(before))
      continue; // the files named are counted above; headers stay as they are
    // A call one translation unit could not compile rewritten stays as it
    // is for all of them (noted where it was seen).
    if (auto skipped = unrewritable.find(path); skipped != unrewritable.end())
      entry.second.erase(
          std::remove_if(entry.second.begin(), entry.second.end(),
                         [&](const CallSite &site) {
                           return !site.frame &&
                                  skipped->second.count(site.nameOffset);
                         }),
          entry.second.end());
    if (entry.second.empty())
      continue;
    Planned planned{path, relativeTo(path, root), before, "", entry.second};
    assignSerials(planned.relative, planned.sites);
    // A catalog addition has no wrapper in msledger/track.h: its wrapper is
    // defined in the file, on the line of the first declaration calling it.
    WrapperInsertions wrappers;
    std::map<std::string, long> firstUse;
    std::vector<CallSite> kept;
    for (const CallSite &site : planned.sites) {
      if (!additions.count(site.callee)) {
        kept.push_back(site);
        continue;
      }
      if (site.topLevelOffset < 0) {
        rewrite.notes.insert(
            planned.relative + ":" + std::to_string(site.line) +
            ": note: call to " + site.callee +
            " not rewritten: a catalog addition called from a macro body "
            "gets no wrapper yet");
        continue;
      }
      long &first =
          firstUse.emplace(site.callee, site.topLevelOffset).first->second;
      first = std::min(first, site.topLevelOffset);
      kept.push_back(site);
    }
    for (const auto &use : firstUse)
      wrappers[static_cast<unsigned>(use.second)] +=
          trackingWrapper(catalog, *catalog.findFunction(use.first));
    if (kept.size() != planned.sites.size()) {
      planned.sites = kept;
      assignSerials(planned.relative, planned.sites);
    }
    planned.after =
        instrument(before, planned.relative, planned.sites, wrappers);
    rewrite.sites += planned.sites.size();
    rewrite.plan.push_back(std::move(planned));
  }
  return rewrite;
}

/// The project root: --root or the current directory, absolute, with a
/// trailing '/'; "" with a message if it is not a directory.
std::string projectRoot() {
  std::string root = normalisePath(Root.empty() ? "." : std::string(Root));
  if (!llvm::sys::fs::is_directory(root)) {
    llvm::errs() << "msrewrite: error: the project root " << root
                 << " is not a directory\n";
    return "";
  }
  return root.back() == '/' ? root : root + "/"; // "/" itself
}

/// The one command of a launched compilation, as the parser sees it.
class SingleCommandDatabase : public CompilationDatabase {
public:
  explicit SingleCommandDatabase(CompileCommand command)
      : Command(std::move(command)) {}
  std::vector<CompileCommand>
  getCompileCommands(StringRef file) const override {
    if (normalisePath(file.str()) != Command.Filename)
      return {};
    return {Command};
  }
  std::vector<std::string> getAllFiles() const override {
    return {Command.Filename};
  }

private:
  CompileCommand Command;
};

/// Runs `argv` with its output to files, or to ours when `out`/`err` are
/// empty; its exit status (1 with a message if it cannot run or crashed).
int runProgram(const std::vector<std::string> &argv, const std::string &out,
               const std::string &err) {
  std::string program = argv[0];
  if (program.find('/') == std::string::npos) {
    llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(program);
    if (!found) {
      llvm::errs() << "msrewrite: error: cannot find the compiler " << program
                   << " on PATH\n";
      return 1;
    }
    program = *found;
  }
  std::vector<StringRef> args(argv.begin(), argv.end());
  std::optional<StringRef> redirects[3] = {std::nullopt, std::nullopt,
                                           std::nullopt};
  if (!out.empty())
    redirects[1] = StringRef(out);
  if (!err.empty())
    redirects[2] = StringRef(err);
  std::string error;
  bool crashed = false;
  int status = llvm::sys::ExecuteAndWait(program, args, std::nullopt, redirects,
                                         0, 0, &error, &crashed);
  if (status < 0 || crashed) {
    llvm::errs() << "msrewrite: error: " << program << ": "
                 << (error.empty() ? "crashed" : error) << "\n";
    return 1;
  }
  return status;
}

/// Where a launched compilation's rewritten copy of the project goes:
/// --keep-dir, or a directory private to this user under $TMPDIR. Named after
/// the object, so a rebuild uses the same paths (ccache hits) and two
/// compilations never share one (headers are rewritten per translation
/// unit, so parallel builds do not race on them).
std::string launchMirror(const CompilerCommand &compile, std::string *error) {
  std::string base = KeepDir;
  if (base.empty()) {
    llvm::SmallString<128> temp;
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, temp);
    base = std::string(temp.str()) + "/msledger-launch-" +
           std::to_string(getuid());
    // Shared /tmp: the directory must be ours and no one else's to write.
    mkdir(base.c_str(), 0700);
    struct stat st;
    if (lstat(base.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) ||
        st.st_uid != getuid() || (st.st_mode & 022)) {
      *error = base + " is not a directory private to this user";
      return "";
    }
  }
  base = normalisePath(base);
  std::string key = compile.directory + '\0' +
                    (compile.output.empty() ? compile.source : compile.output);
  char hash[17];
  snprintf(hash, sizeof hash, "%016llx",
           static_cast<unsigned long long>(fnv1a64(key)));
  std::string mirror = base + "/" +
                       std::string(llvm::sys::path::filename(compile.source)) +
                       "-" + hash;
  // A rebuild starts afresh: no header deleted since may linger.
  llvm::sys::fs::remove_directories(mirror);
  if (std::error_code ec = llvm::sys::fs::create_directories(mirror)) {
    *error = "cannot create " + mirror + ": " + ec.message();
    return "";
  }
  return mirror + "/";
}

/// Whether a command the launcher runs as it is links a program or library.
bool isLink(const CompilerCommand &how) {
  if (how.command.empty())
    return false;
  static const std::set<std::string> notLinking = {
      "-c",           "-S",        "-E",
      "-M",           "-MM",       "-fsyntax-only",
      "-v",           "--version", "-dumpversion",
      "-dumpmachine", "--help"};
  bool inputs = false;
  for (size_t i = 1; i < how.command.size(); ++i) {
    const std::string &arg = how.command[i];
    if (notLinking.count(arg) || arg.rfind("-print-", 0) == 0)
      return false;
    inputs |= arg[0] != '-';
  }
  return inputs;
}

/// Prints a file's bytes to `out` with the mirror's paths turned back into
/// the project's.
void replay(const std::string &path, llvm::raw_ostream &out,
            const std::string &mirror, const std::string &root) {
  std::string error;
  if (std::optional<std::string> text = readTextFile(path, &error))
    out << remapPaths(*text, mirror, root, /*makeSyntax=*/false);
  out.flush();
}

/// msrewrite --launch [options] -- COMPILER ARGS...
int launch(const std::vector<std::string> &argv) {
  if (argv.empty()) {
    llvm::errs() << "msrewrite: error: --launch needs the compiler command "
                    "after --\n";
    return 1;
  }
  llvm::SmallString<256> cwd;
  llvm::sys::fs::current_path(cwd);
  CompilerCommand compile;
  std::string error;
  if (!parseCompilerCommand(argv, std::string(cwd.str()), &compile, &error)) {
    llvm::errs() << "msrewrite: error: " << error << "\n";
    return 1;
  }
  std::string root = projectRoot();
  if (root.empty())
    return 1;
  const Installation &installation = Installation::get();
  std::vector<std::string> command = compile.wrappers;
  command.insert(command.end(), compile.command.begin(), compile.command.end());
  if (!compile.skipReason.empty() || !isProjectFile(compile.source, root)) {
    // Not one project source: run it as it is, with the ledger's library if
    // it links.
    if (compile.skipReason.empty() || !isLink(compile))
      return runProgram(command.empty() ? argv : command, "", "");
    std::vector<std::string> flags = installation.linkFlags();
    command.insert(command.end(), flags.begin(), flags.end());
    return runProgram(command, "", "");
  }

  std::set<std::string> additions;
  std::optional<Catalog> catalog = loadCatalogs(&additions, &error);
  if (!catalog) {
    llvm::errs() << "msrewrite: error: " << error << "\n";
    return 1;
  }
  std::vector<std::string> parseCommand = {compile.command[0]};
  parseCommand.insert(parseCommand.end(), ExtraArgsBefore.begin(),
                      ExtraArgsBefore.end());
  for (size_t i = 1; i < compile.command.size(); ++i)
    if (!isGccOnlyFlag(compile.command[i]))
      parseCommand.push_back(compile.command[i]);
  parseCommand.insert(parseCommand.end(), ExtraArgs.begin(), ExtraArgs.end());
  SingleCommandDatabase database(CompileCommand(
      compile.directory, compile.source, parseCommand, compile.output));
  // Clang's diagnostics are kept back: if the compiler itself rejects the
  // source, its own messages are the ones to show.
  std::string diagnosticText;
  llvm::raw_string_ostream diagnosticStream(diagnosticText);
  IntrusiveRefCntPtr<DiagnosticOptions> diagnosticOptions(
      new DiagnosticOptions);
  TextDiagnosticPrinter diagnostics(diagnosticStream, diagnosticOptions.get());
  Rewrite rewrite = planRewrite(database, {compile.source}, *catalog, additions,
                                root, &diagnostics);
  if (!rewrite.failedFiles.empty()) {
    int status = runProgram(command, "", "");
    if (status != 0)
      return status;
    diagnosticStream.flush();
    llvm::errs() << diagnosticText << "msrewrite: error: " << compile.source
                 << " compiles, but not with clang " << LLVM_VERSION_STRING
                 << " (above), so it cannot be instrumented\n";
    if (!compile.output.empty())
      llvm::sys::fs::remove(compile.output);
    return 1;
  }
  for (const std::string &note : rewrite.notes)
    message(note);
  if (rewrite.plan.empty()) {
    // Nothing to rewrite: the original compiles, with the ledger's header if
    // it was rewritten in place before (msrewrite -i).
    if (rewrite.already) {
      std::vector<std::string> flags = installation.compileFlags();
      command.insert(command.end(), flags.begin(), flags.end());
    }
    return runProgram(command, "", "");
  }

  std::string mirror = launchMirror(compile, &error);
  std::set<std::string> written;
  if (mirror.empty() ||
      !writeMirrorFiles(mirror, {compile.source}, {}, rewrite.projectFiles,
                        rewrite.plan, root, &written, &error)) {
    llvm::errs() << "msrewrite: error: " << error << "\n";
    return 1;
  }
  for (const CompilerCommand::PathOption &dir : compile.includeDirs)
    if (isUnder(dir.path + "/", root))
      llvm::sys::fs::create_directories(mirror + relativeTo(dir.path, root));
  std::vector<std::string> mirrored =
      mirroredCommand(compile, root, mirror, installation.compileFlags());
  // The compiler's messages name the mirror's files; they are replayed with
  // the project's paths.
  std::string outPath = mirror + ".msledger-stdout",
              errPath = mirror + ".msledger-stderr";
  int status = runProgram(mirrored, outPath, errPath);
  replay(outPath, llvm::outs(), mirror, root);
  replay(errPath, llvm::errs(), mirror, root);
  llvm::sys::fs::remove(outPath);
  llvm::sys::fs::remove(errPath);
  if (status == 0 && !compile.depfile.empty()) {
    std::optional<std::string> depfile = readTextFile(compile.depfile, &error);
    if (depfile &&
        !writeTextFileAtomically(
            compile.depfile,
            remapPaths(*depfile, mirror, root, /*makeSyntax=*/true), &error)) {
      llvm::errs() << "msrewrite: error: " << error << "\n";
      status = 1;
    }
  }
  if (KeepDir.empty())
    llvm::sys::fs::remove_directories(mirror);
  return status;
}

/// msrewrite's own word on an unknown option, before LLVM's, which names the
/// nearest of all its options however far ("--bogus": "Did you mean '-o'?"):
/// a suggestion only for a near miss of one of msrewrite's.
bool knownOptionsOnly(int argc, const char **argv) {
  llvm::StringMap<cl::Option *> &known = cl::getRegisteredOptions();
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "--")
      break;
    if (!arg.starts_with("-") || arg == "-")
      continue;
    auto [name, value] = arg.ltrim('-').split('=');
    auto found = known.find(name);
    if (found != known.end()) {
      if (!arg.contains('=') &&
          found->second->getValueExpectedFlag() == cl::ValueRequired)
        ++i; // "-p build": the next word is the value
      continue;
    }
    llvm::StringRef best;
    unsigned bestDistance = 0;
    for (auto &entry : known) {
      cl::Option *option = entry.getValue();
      bool ours = entry.getKey() == "help" || entry.getKey() == "version" ||
                  llvm::is_contained(option->Categories, &Category);
      unsigned d = name.edit_distance(entry.getKey());
      if (ours && (best.empty() || d < bestDistance)) {
        best = entry.getKey();
        bestDistance = d;
      }
    }
    llvm::errs() << "msrewrite: error: unknown option '" << arg << "'";
    if (!best.empty() && bestDistance * 3 <= name.size())
      llvm::errs() << "; did you mean '" << (best.size() == 1 ? "-" : "--")
                   << best << "'?";
    llvm::errs() << " (msrewrite --help lists the options)\n";
    return false;
  }
  return true;
}

} // namespace

int main(int argc, const char **argv) {
  cl::SetVersionPrinter([](llvm::raw_ostream &out) {
    out << "msrewrite " MSREWRITE_VERSION "\n";
  });
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--")
      break;
    std::vector<std::string> flags;
    if (arg == "--print-build-flags" || arg == "--print-build-flags=compile")
      flags = Installation::get().compileFlags();
    if (arg == "--print-build-flags" || arg == "--print-build-flags=link") {
      std::vector<std::string> link = Installation::get().linkFlags();
      flags.insert(flags.end(), link.begin(), link.end());
    }
    if (arg.rfind("--print-build-flags", 0) == 0) {
      if (flags.empty()) {
        llvm::errs() << "msrewrite: error: --print-build-flags takes no "
                        "value, =compile or =link\n";
        return 1;
      }
      for (size_t f = 0; f < flags.size(); ++f)
        llvm::outs() << (f ? " " : "") << flags[f];
      llvm::outs() << "\n";
      return 0;
    }
  }
  cl::HideUnrelatedOptions(Category);
  if (!knownOptionsOnly(argc, argv))
    return 1;
  const char *overview =
      "Rewrites calls to the catalog's ACL, DVPP and driver APIs so that\n"
      "msledger's reports name their file and line.\n";
  // --launch: msrewrite's options, then "--" and the compiler command.
  int dashes = argc;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--") {
      dashes = i;
      break;
    }
  for (int i = 1; i < dashes; ++i)
    if (std::string(argv[i]) == "--launch") {
      if (!cl::ParseCommandLineOptions(dashes, argv, overview, &llvm::errs()))
        return 1;
      if (!BuildPath.empty() || !Sources.empty() || InPlace ||
          !OutputDir.empty() || Diff || Revert || RewriteAll ||
          !ExportSites.empty()) {
        llvm::errs() << "msrewrite: error: --launch takes the compiler "
                        "command after --; -p, files, --all, -i, -o, --diff, "
                        "--revert and --export-sites do not apply\n";
        return 1;
      }
      return launch(std::vector<std::string>(argv + std::min(dashes + 1, argc),
                                             argv + argc));
    }
  // Flags after "--" make a database of their own, as with clang-tidy.
  std::string dbError;
  std::unique_ptr<CompilationDatabase> fixed =
      FixedCompilationDatabase::loadFromCommandLine(argc, argv, dbError);
  if (!cl::ParseCommandLineOptions(argc, argv, overview, &llvm::errs()))
    return 1;
  if (!KeepDir.empty()) {
    llvm::errs() << "msrewrite: error: --keep-dir goes with --launch\n";
    return 1;
  }
  std::unique_ptr<CompilationDatabase> loaded;
  const std::set<std::string> *dropped = nullptr;
  if (fixed) {
    loaded = std::move(fixed);
  } else if (!BuildPath.empty()) {
    std::unique_ptr<CompileDatabase> json =
        CompileDatabase::load(BuildPath, &dbError);
    if (!json) {
      llvm::errs() << "msrewrite: error: " << dbError << "\n";
      return 1;
    }
    dropped = &json->droppedFlags();
    loaded = std::move(json);
  } else if (!Revert) {
    llvm::errs() << "msrewrite: error: give the build directory with -p "
                    "BUILD_DIR (it holds "
                    "compile_commands.json), or compiler flags after --\n";
    return 1;
  }
  if (dropped)
    for (const std::string &flag : *dropped)
      llvm::errs() << "msrewrite: note: dropping the gcc-only flag " << flag
                   << " for clang\n";
  std::string root = projectRoot();
  if (root.empty())
    return 1;
  if (Revert)
    return revertAll(root);
  int modes = InPlace + Diff + !OutputDir.empty();
  if (modes > 1) {
    llvm::errs() << "msrewrite: error: -i, -o and --diff exclude each other\n";
    return 1;
  }
  bool mirrorExisted = false;
  if (!OutputDir.empty()) {
    // The copy goes beside the project, never over it: an output directory
    // that is the root or holds it would overwrite the project's own files
    // (its compile database first).
    std::string mirror = normalisePath(OutputDir) + "/";
    if (mirror == root || isUnder(root, mirror)) {
      llvm::errs() << "msrewrite: error: the output directory " << mirror
                   << (mirror == root ? " is" : " contains")
                   << " the project root " << root
                   << "; choose a directory beside or inside it\n";
      return 1;
    }
    mirrorExisted = llvm::sys::fs::exists(mirror);
  }
  if (modes == 0 && ExportSites.empty()) {
    llvm::errs() << "msrewrite: error: choose what to do: -i (rewrite in "
                    "place), -o DIR (a rewritten copy), "
                    "--diff, --revert or --export-sites=FILE\n";
    return 1;
  }
  std::string error;
  std::set<std::string> additions;
  std::optional<Catalog> catalog = loadCatalogs(&additions, &error);
  if (!catalog) {
    llvm::errs() << "msrewrite: error: " << error << "\n";
    return 1;
  }
  ArgumentsAdjustingCompilations database(std::move(loaded));
  if (!ExtraArgsBefore.empty())
    database.appendArgumentsAdjuster(getInsertArgumentAdjuster(
        std::vector<std::string>(ExtraArgsBefore.begin(),
                                 ExtraArgsBefore.end()),
        ArgumentInsertPosition::BEGIN));
  if (!ExtraArgs.empty())
    database.appendArgumentsAdjuster(getInsertArgumentAdjuster(
        std::vector<std::string>(ExtraArgs.begin(), ExtraArgs.end()),
        ArgumentInsertPosition::END));
  std::vector<std::string> files =
      RewriteAll ? database.getAllFiles()
                 : std::vector<std::string>(Sources.begin(), Sources.end());
  if (files.empty()) {
    llvm::errs()
        << "msrewrite: error: no files to rewrite (name them, or use --all)\n";
    return 1;
  }
  for (std::string &file : files) {
    file = normalisePath(file); // the database knows files by absolute path
    if (database.getCompileCommands(file).empty()) {
      llvm::errs() << "msrewrite: error: " << file
                   << " is not in the compile database\n";
      return 1;
    }
    for (const CompileCommand &command : database.getCompileCommands(file))
      if (!llvm::sys::fs::is_directory(command.Directory)) {
        llvm::errs() << "msrewrite: error: the compile database's entry for "
                     << file << " runs in " << command.Directory
                     << ", which is not a directory\n";
        return 1;
      }
    if (!RewriteAll && !isUnder(file, root)) {
      llvm::errs() << "msrewrite: error: " << file
                   << " is outside the project root " << root
                   << " and is never rewritten (--root names the root)\n";
      return 1;
    }
  }

  Rewrite rewrite = planRewrite(database, files, *catalog, additions, root);
  for (const std::string &file : rewrite.failedFiles)
    message("msrewrite: error: " + file +
            " does not compile; it is left untouched");
  for (const std::string &note : rewrite.notes)
    message(note);
  if (InPlace)
    for (const Planned &planned : rewrite.plan) {
      // Root may write anything; a file without write bits is still one its
      // owner does not want changed.
      struct stat st;
      const char *path = planned.path.c_str();
      if (access(path, W_OK) != 0 ||
          (stat(path, &st) == 0 && !(st.st_mode & 0222))) {
        llvm::errs() << "msrewrite: error: cannot write " << planned.path
                     << ": the file is read-only; nothing was written\n";
        return 1;
      }
    }
  for (const Planned &planned : rewrite.plan) {
    if (Diff)
      llvm::outs() << instrumentationDiff(planned.relative, planned.before,
                                          planned.after);
    if (InPlace &&
        !writeTextFileAtomically(planned.path, planned.after, &error)) {
      llvm::errs() << "msrewrite: error: " << error << "\n";
      return 1;
    }
  }
  if (!OutputDir.empty() &&
      !writeMirror(database, files, rewrite.failedFiles, rewrite.projectFiles,
                   rewrite.plan, root, &error)) {
    llvm::errs() << "msrewrite: error: " << error << "\n";
    // A copy this run started is not left half-made.
    if (!mirrorExisted)
      llvm::sys::fs::remove_directories(normalisePath(OutputDir));
    return 1;
  }
  if (!ExportSites.empty()) {
    boost::json::array list;
    for (const Planned &planned : rewrite.plan)
      for (const CallSite &site : planned.sites)
        list.push_back(
            boost::json::object{{"serial", std::to_string(site.serial)},
                                {"file", planned.relative},
                                {"line", site.line},
                                {"column", site.column},
                                {"callee", site.callee},
                                {"function", site.function},
                                {"text", site.lineText}});
    boost::json::object manifest{{"tool", "msrewrite"},
                                 {"format", 1},
                                 {"root", root},
                                 {"sites", std::move(list)}};
    if (!writeTextFileAtomically(
            ExportSites, boost::json::serialize(manifest) + "\n", &error)) {
      llvm::errs() << "msrewrite: error: " << error << "\n";
      return 1;
    }
  }
  message("msrewrite: " +
          std::string(InPlace || !OutputDir.empty() ? "rewrote "
                                                    : "would rewrite ") +
          std::to_string(rewrite.sites) + " site(s) in " +
          std::to_string(rewrite.plan.size()) + " file(s); " +
          std::to_string(rewrite.already) + " already instrumented, " +
          std::to_string(rewrite.notes.size()) + " call(s) reported, " +
          std::to_string(rewrite.failedFiles.size()) +
          " file(s) failed to compile, " + std::to_string(rewrite.outside) +
          " call(s) outside the project root left alone");
  return rewrite.failedFiles.empty() ? 0 : 1;
}
