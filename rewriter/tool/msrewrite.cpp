//===- msrewrite.cpp - Rewrites catalog calls to carry their sites --------===//
//
// msrewrite -p BUILD_DIR [options] FILE...   (or --all for every file)
//
// Every call to a catalog API in the given translation units -- and in the
// project's headers they include -- becomes a call to its tracking wrapper
// with the call's site (msledger/track.h). Files are rewritten only under the
// project root (--root, default the current directory), each written to a
// temporary and renamed. See rewriter/README.md.
//
// This file parses the options and dispatches; the work is in rewriter/lib.
//
//===----------------------------------------------------------------------===//
#include "catalog.h"
#include "compile_db.h"
#include "installation.h"
#include "instrument.h"
#include "launch.h"
#include "mirror.h"
#include "paths.h"
#include "rewrite.h"
#include "text_file.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h" // ArgumentsAdjustingCompilations
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <sys/stat.h>
#include <unistd.h>

using namespace clang::tooling;
using namespace msledger;
namespace cl = llvm::cl;

#ifndef MSLEDGER_VERSION
#error "MSLEDGER_VERSION comes from the build (the msledger_version target)"
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

void message(const std::string &text) { llvm::errs() << text << "\n"; }

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

/// What the parse of a translation unit adds to its command: the builtin
/// headers, and msledger/track.h as rewritten files are compiled with it.
ParseSettings parseSettings() {
  const Installation &installation = Installation::get();
  return {installation.resourceDir, installation.compileFlags()};
}

std::vector<std::string> catalogAdditions() {
  return std::vector<std::string>(CatalogFiles.begin(), CatalogFiles.end());
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

/// --print-build-flags[=compile|=link] anywhere before "--": prints the flags
/// and gives 0, or 1 for another value; nullopt when it is not there.
std::optional<int> printBuildFlags(int argc, const char **argv) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--")
      break;
    if (arg.rfind("--print-build-flags", 0) != 0)
      continue;
    std::vector<std::string> flags;
    if (arg == "--print-build-flags" || arg == "--print-build-flags=compile")
      flags = Installation::get().compileFlags();
    if (arg == "--print-build-flags" || arg == "--print-build-flags=link") {
      std::vector<std::string> link = Installation::get().linkFlags();
      flags.insert(flags.end(), link.begin(), link.end());
    }
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
  return std::nullopt;
}

/// msrewrite --launch [options] -- COMPILER ARGS..., once msrewrite's own
/// options (argv up to `dashes`) are parsed.
int launchMode(const std::vector<std::string> &command) {
  if (!BuildPath.empty() || !Sources.empty() || InPlace || !OutputDir.empty() ||
      Diff || Revert || RewriteAll || !ExportSites.empty()) {
    llvm::errs() << "msrewrite: error: --launch takes the compiler "
                    "command after --; -p, files, --all, -i, -o, --diff, "
                    "--revert and --export-sites do not apply\n";
    return 1;
  }
  std::string root = projectRoot();
  if (root.empty())
    return 1;
  const Installation &installation = Installation::get();
  LaunchSettings settings;
  settings.root = root;
  settings.keepDir = KeepDir;
  settings.catalog = installation.catalog;
  settings.catalogAdditions = catalogAdditions();
  settings.extraArgsBefore.assign(ExtraArgsBefore.begin(),
                                  ExtraArgsBefore.end());
  settings.extraArgs.assign(ExtraArgs.begin(), ExtraArgs.end());
  settings.parse = parseSettings();
  settings.compileFlags = installation.compileFlags();
  settings.linkFlags = installation.linkFlags();
  return runLaunched(command, settings);
}

int revertMode(const std::string &root) {
  RevertCount count = revertTree(root, message);
  message("msrewrite: reverted " + std::to_string(count.reverted) + " file(s)" +
          (count.inexact
               ? ", " + std::to_string(count.inexact) + " edited since"
               : "") +
          (count.failures ? ", " + std::to_string(count.failures) + " failed"
                          : ""));
  return count.failures ? 1 : 0;
}

/// The database that -p or the flags after "--" give; nullptr with a
/// message if there is none, or none is needed (--revert).
std::unique_ptr<CompilationDatabase>
loadDatabase(std::unique_ptr<CompilationDatabase> fixed, bool *failed) {
  *failed = false;
  if (fixed)
    return fixed;
  if (BuildPath.empty()) {
    if (Revert)
      return nullptr;
    llvm::errs() << "msrewrite: error: give the build directory with -p "
                    "BUILD_DIR (it holds "
                    "compile_commands.json), or compiler flags after --\n";
    *failed = true;
    return nullptr;
  }
  std::string error;
  std::unique_ptr<CompileDatabase> json =
      CompileDatabase::load(BuildPath, &error);
  if (!json) {
    llvm::errs() << "msrewrite: error: " << error << "\n";
    *failed = true;
    return nullptr;
  }
  for (const std::string &flag : json->droppedFlags())
    llvm::errs() << "msrewrite: note: dropping the gcc-only flag " << flag
                 << " for clang\n";
  return json;
}

/// The files to rewrite, absolute; false with a message if one is not in
/// the database, runs in no directory, or (named) is outside the root.
bool filesToRewrite(const CompilationDatabase &database,
                    const std::string &root, std::vector<std::string> *files) {
  *files = RewriteAll
               ? database.getAllFiles()
               : std::vector<std::string>(Sources.begin(), Sources.end());
  if (files->empty()) {
    llvm::errs()
        << "msrewrite: error: no files to rewrite (name them, or use --all)\n";
    return false;
  }
  for (std::string &file : *files) {
    file = normalisePath(file); // the database knows files by absolute path
    if (database.getCompileCommands(file).empty()) {
      llvm::errs() << "msrewrite: error: " << file
                   << " is not in the compile database\n";
      return false;
    }
    for (const CompileCommand &command : database.getCompileCommands(file))
      if (!llvm::sys::fs::is_directory(command.Directory)) {
        llvm::errs() << "msrewrite: error: the compile database's entry for "
                     << file << " runs in " << command.Directory
                     << ", which is not a directory\n";
        return false;
      }
    if (!RewriteAll && !isUnder(file, root)) {
      llvm::errs() << "msrewrite: error: " << file
                   << " is outside the project root " << root
                   << " and is never rewritten (--root names the root)\n";
      return false;
    }
  }
  return true;
}

/// -i: whether every file to rewrite may be written; a message if not.
bool writable(const RewritePlan &rewrite) {
  for (const FileRewrite &planned : rewrite.files) {
    // Root may write anything; a file without write bits is still one its
    // owner does not want changed.
    struct stat st;
    const char *path = planned.path.c_str();
    if (access(path, W_OK) != 0 ||
        (stat(path, &st) == 0 && !(st.st_mode & 0222))) {
      llvm::errs() << "msrewrite: error: cannot write " << planned.path
                   << ": the file is read-only; nothing was written\n";
      return false;
    }
  }
  return true;
}

/// Does what the options ask with the plan: --diff, -i, -o, --export-sites.
bool carryOut(const RewritePlan &rewrite, const CompilationDatabase &database,
              const std::vector<std::string> &files, const std::string &root,
              bool mirrorExisted) {
  std::string error;
  if (InPlace && !writable(rewrite))
    return false;
  for (const FileRewrite &planned : rewrite.files) {
    if (Diff)
      llvm::outs() << instrumentationDiff(planned.relative, planned.before,
                                          planned.after);
    if (InPlace &&
        !writeTextFileAtomically(planned.path, planned.after, &error)) {
      llvm::errs() << "msrewrite: error: " << error << "\n";
      return false;
    }
  }
  if (!OutputDir.empty() &&
      !writeMirror(database, files, rewrite.failedFiles, rewrite.projectFiles,
                   rewrite.files, root, normalisePath(OutputDir) + "/",
                   BuildPath.empty() ? "" : normalisePath(BuildPath), message,
                   &error)) {
    llvm::errs() << "msrewrite: error: " << error << "\n";
    // A copy this run started is not left half-made.
    if (!mirrorExisted)
      llvm::sys::fs::remove_directories(normalisePath(OutputDir));
    return false;
  }
  if (!ExportSites.empty() &&
      !writeTextFileAtomically(ExportSites, sitesManifest(rewrite.files, root),
                               &error)) {
    llvm::errs() << "msrewrite: error: " << error << "\n";
    return false;
  }
  return true;
}

/// msrewrite -p BUILD_DIR [options] FILE...: the modes that rewrite.
int rewriteMode(std::unique_ptr<CompilationDatabase> loaded,
                const std::string &root) {
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
  std::optional<Catalog> catalog = loadCatalogs(
      Installation::get().catalog, catalogAdditions(), &additions, &error);
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
  std::vector<std::string> files;
  if (!filesToRewrite(database, root, &files))
    return 1;

  RewritePlan rewrite = planRewrite(database, files, *catalog, additions, root,
                                    parseSettings(), Jobs);
  for (const std::string &file : rewrite.instrumented)
    message(alreadyInstrumentedNote(file));
  for (const std::string &file : rewrite.failedFiles)
    message("msrewrite: error: " + file +
            " does not compile; it is left untouched");
  for (const std::string &note : rewrite.notes)
    message(note);
  if (!carryOut(rewrite, database, files, root, mirrorExisted))
    return 1;
  message("msrewrite: " +
          std::string(InPlace || !OutputDir.empty() ? "rewrote "
                                                    : "would rewrite ") +
          std::to_string(rewrite.sites) + " site(s) in " +
          std::to_string(rewrite.files.size()) + " file(s); " +
          std::to_string(rewrite.instrumented.size()) +
          " already instrumented, " + std::to_string(rewrite.notes.size()) +
          " call(s) reported, " + std::to_string(rewrite.failedFiles.size()) +
          " file(s) failed to compile, " + std::to_string(rewrite.outside) +
          " call(s) outside the project root left alone");
  return rewrite.failedFiles.empty() ? 0 : 1;
}

} // namespace

int main(int argc, const char **argv) {
  cl::SetVersionPrinter([](llvm::raw_ostream &out) {
    out << "msrewrite " MSLEDGER_VERSION "\n";
  });
  if (std::optional<int> status = printBuildFlags(argc, argv))
    return *status;
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
      return launchMode(std::vector<std::string>(
          argv + std::min(dashes + 1, argc), argv + argc));
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
  bool failed = false;
  std::unique_ptr<CompilationDatabase> database =
      loadDatabase(std::move(fixed), &failed);
  if (failed)
    return 1;
  std::string root = projectRoot();
  if (root.empty())
    return 1;
  if (Revert)
    return revertMode(root);
  return rewriteMode(std::move(database), root);
}
