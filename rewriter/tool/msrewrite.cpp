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
#include "text_file.h"
#include "wrappers.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h" // ArgumentsAdjustingCompilations
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <boost/json.hpp>

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

std::string relativeTo(const std::string &path, const std::string &root) {
  return path.substr(root.size());
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

  /// The compile and link flags of rewritten files (--print-build-flags).
  std::string buildFlags() const {
    std::string flags;
    for (const std::string &dir : IncludeDirs)
      flags += "-I" + dir + " ";
    return flags + "-include msledger/track.h -L" + LibraryDir +
           " -Wl,-rpath," + LibraryDir +
           " -Wl,--push-state,--no-as-needed -lmsledger -Wl,--pop-state";
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
                TranslationUnitSites &out, bool *failed)
      : Catalog_(catalog), Root(root), Out(out), Failed(failed) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return makeCollector(Catalog_, Root, Out);
  }
  bool BeginSourceFileAction(CompilerInstance &compiler) override {
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
};

/// Runs the collector over one file; false if it does not compile.
bool collect(const CompilationDatabase &database, const std::string &file,
             const Catalog &catalog, const std::string &root,
             TranslationUnitSites &out) {
  ClangTool tool(database, {file});
  tool.appendArgumentsAdjuster(getClangStripOutputAdjuster());
  tool.appendArgumentsAdjuster(getClangSyntaxOnlyAdjuster());
  // An explicit resource directory (see Installation): builtin headers work
  // from any install and any directory.
  const Installation &installation = Installation::get();
  std::vector<std::string> extra = {"-resource-dir=" + installation.ResourceDir,
                                    "-w", "-Wno-unknown-warning-option"};
  // Rewritten files are compiled with -include msledger/track.h.
  for (const std::string &dir : installation.IncludeDirs)
    extra.push_back("-I" + dir);
  extra.push_back("-include");
  extra.push_back("msledger/track.h");
  tool.appendArgumentsAdjuster(
      getInsertArgumentAdjuster(extra, ArgumentInsertPosition::END));
  bool failed = false;
  struct Factory : FrontendActionFactory {
    const Catalog &C;
    const std::string &R;
    TranslationUnitSites &O;
    bool *F;
    Factory(const Catalog &c, const std::string &r, TranslationUnitSites &o,
            bool *f)
        : C(c), R(r), O(o), F(f) {}
    std::unique_ptr<FrontendAction> create() override {
      return std::make_unique<CollectAction>(C, R, O, F);
    }
  } factory(catalog, root, out, &failed);
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

/// -o DIR: every project file the translation units read, rewritten or as it
/// is, at the same place under DIR, and a compile database that builds them
/// there with the same commands.
bool writeMirror(const CompilationDatabase &database,
                 const std::vector<std::string> &files,
                 const std::set<std::string> &failed,
                 const std::set<std::string> &projectFiles,
                 const std::vector<Planned> &plan, const std::string &root,
                 std::string *error) {
  std::string mirror = normalisePath(OutputDir) + "/";
  std::map<std::string, const Planned *> rewritten;
  for (const Planned &planned : plan)
    rewritten[planned.path] = &planned;
  std::set<std::string> all = projectFiles;
  all.insert(files.begin(), files.end());
  for (const std::string &file : all) {
    if (isUnder(file, mirror) || failed.count(file))
      continue;
    std::string target = mirror + relativeTo(file, root);
    if (std::error_code ec = llvm::sys::fs::create_directories(
            llvm::sys::path::parent_path(target))) {
      *error = "cannot create the directory of " + target + ": " + ec.message();
      return false;
    }
    auto it = rewritten.find(file);
    std::optional<std::string> text =
        it != rewritten.end() ? it->second->after : readTextFile(file, error);
    if (!text || !writeTextFileAtomically(target, *text, error))
      return false;
  }
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
    if (it->type() != llvm::sys::fs::file_type::regular_file)
      continue;
    std::string path = it->path();
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

} // namespace

int main(int argc, const char **argv) {
  cl::SetVersionPrinter([](llvm::raw_ostream &out) {
    out << "msrewrite " MSREWRITE_VERSION "\n";
  });
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--print-build-flags") {
      llvm::outs() << Installation::get().buildFlags() << "\n";
      return 0;
    }
  // Flags after "--" make a database of their own, as with clang-tidy.
  std::string dbError;
  std::unique_ptr<CompilationDatabase> fixed =
      FixedCompilationDatabase::loadFromCommandLine(argc, argv, dbError);
  cl::HideUnrelatedOptions(Category);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "Rewrites calls to the catalog's ACL, DVPP and driver APIs so that\n"
          "msledger's reports name their file and line.\n",
          &llvm::errs()))
    return 1;
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
  std::string root = normalisePath(Root.empty() ? "." : std::string(Root));
  if (!llvm::sys::fs::is_directory(root)) {
    llvm::errs() << "msrewrite: error: the project root " << root
                 << " is not a directory\n";
    return 1;
  }
  root += "/";
  if (Revert)
    return revertAll(root);
  int modes = InPlace + Diff + !OutputDir.empty();
  if (modes > 1) {
    llvm::errs() << "msrewrite: error: -i, -o and --diff exclude each other\n";
    return 1;
  }
  if (modes == 0 && ExportSites.empty()) {
    llvm::errs() << "msrewrite: error: choose what to do: -i (rewrite in "
                    "place), -o DIR (a rewritten copy), "
                    "--diff, --revert or --export-sites=FILE\n";
    return 1;
  }
  std::string error;
  std::optional<Catalog> catalog =
      Catalog::load(Installation::get().Catalog, &error);
  if (!catalog) {
    llvm::errs() << "msrewrite: error: " << error << "\n";
    return 1;
  }
  // A project's own allocators and handles, added to the built-in catalog.
  std::set<std::string> additions;
  for (const std::string &path : CatalogFiles) {
    std::optional<Catalog> added = Catalog::load(path, &error);
    if (!added || !catalog->merge(*added, path, &error)) {
      llvm::errs() << "msrewrite: error: " << error << "\n";
      return 1;
    }
    for (const Function &function : added->functions())
      additions.insert(function.name);
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
  }

  // Parse the translation units, -j at a time; each contributes its sites.
  std::vector<TranslationUnitSites> results(files.size());
  std::vector<char> ok(files.size(), 0);
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < files.size();)
      ok[i] = collect(database, files[i], *catalog, root, results[i]);
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < std::max(1u, unsigned(Jobs)); ++t)
    threads.emplace_back(worker);
  worker();
  for (auto &thread : threads)
    thread.join();

  std::map<std::string, std::vector<CallSite>> sites;
  std::map<std::string, std::string> contents;
  std::set<std::string> failedFiles;
  unsigned outside = 0;
  std::set<std::string> projectFiles;
  std::set<std::string> notes;
  for (size_t i = 0; i < files.size(); ++i) {
    if (!ok[i]) {
      failedFiles.insert(normalisePath(files[i]));
      message("msrewrite: error: " + files[i] +
              " does not compile; it is left untouched");
      continue;
    }
    for (auto &entry : results[i].sites)
      sites[entry.first].insert(sites[entry.first].end(), entry.second.begin(),
                                entry.second.end());
    contents.insert(results[i].contents.begin(), results[i].contents.end());
    notes.insert(results[i].notes.begin(), results[i].notes.end());
    outside += results[i].outsideRoot;
    projectFiles.insert(results[i].projectFiles.begin(),
                        results[i].projectFiles.end());
  }
  for (const std::string &note : notes)
    message(note);
  unsigned already = 0;
  for (const std::string &file : files) {
    std::string error;
    std::optional<std::string> text = readTextFile(file, &error);
    if (!failedFiles.count(file) && text && isInstrumented(*text)) {
      ++already;
      message(
          "msrewrite: note: " + file +
          " is already instrumented; left as it is (--revert, then rewrite, to "
          "pick up calls added since)");
    }
  }

  // Plan every file first, write only when all can be written.
  std::vector<Planned> plan;
  unsigned rewrittenSites = 0;
  for (auto &entry : sites) {
    const std::string &path = entry.first;
    if (failedFiles.count(path))
      continue;
    const std::string &before = contents[path];
    if (isInstrumented(before))
      continue; // the files named are counted above; headers stay as they are
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
        message(planned.relative + ":" + std::to_string(site.line) +
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
      wrappers[static_cast<unsigned>(use.second)] += trackingWrapper(
          *catalog, *catalog->findFunction(use.first), /*registers=*/true);
    if (kept.size() != planned.sites.size()) {
      planned.sites = kept;
      assignSerials(planned.relative, planned.sites);
    }
    planned.after =
        instrument(before, planned.relative, planned.sites, wrappers);
    rewrittenSites += planned.sites.size();
    if (InPlace) {
      // Root may write anything; a file without write bits is still one its
      // owner does not want changed.
      struct stat st;
      bool readOnly = access(path.c_str(), W_OK) != 0 ||
                      (stat(path.c_str(), &st) == 0 && !(st.st_mode & 0222));
      if (readOnly) {
        llvm::errs() << "msrewrite: error: cannot write " << path
                     << ": the file is read-only; nothing was written\n";
        return 1;
      }
    }
    plan.push_back(std::move(planned));
  }
  for (const Planned &planned : plan) {
    if (Diff)
      llvm::outs() << instrumentationDiff(planned.relative, planned.before,
                                          planned.after);
    if (InPlace &&
        !writeTextFileAtomically(planned.path, planned.after, &error)) {
      llvm::errs() << "msrewrite: error: " << error << "\n";
      return 1;
    }
  }
  if (!OutputDir.empty() && !writeMirror(database, files, failedFiles,
                                         projectFiles, plan, root, &error)) {
    llvm::errs() << "msrewrite: error: " << error << "\n";
    return 1;
  }
  if (!ExportSites.empty()) {
    boost::json::array list;
    for (const Planned &planned : plan)
      for (const CallSite &site : planned.sites)
        list.push_back(boost::json::object{{"serial", site.serial},
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
          std::to_string(rewrittenSites) + " site(s) in " +
          std::to_string(plan.size()) + " file(s); " + std::to_string(already) +
          " already instrumented, " + std::to_string(notes.size()) +
          " call(s) reported, " + std::to_string(failedFiles.size()) +
          " file(s) failed to compile, " + std::to_string(outside) +
          " call(s) outside the project root left alone");
  return failedFiles.empty() ? 0 : 1;
}
