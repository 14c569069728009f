//===- collect.cpp - Finding the catalog's calls in a translation unit ----===//
#include "collect.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Index/USRGeneration.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <map>
#include <mutex>

using namespace clang;

namespace msledger {

namespace {

/// The absolute, normalised path of a file the parse read: a relative name
/// is resolved against the parse's working directory (its command's, kept by
/// its own file system), not the process's.
std::string absoluteFileName(const SourceManager &sm, StringRef name) {
  SmallString<256> path(name);
  sm.getFileManager().makeAbsolutePath(path);
  return normalisePath(std::string(path.str()));
}

class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(ASTContext &context, const Catalog &catalog,
            const std::string &root, TranslationUnitSites &out)
      : Context(context), SM(context.getSourceManager()), Catalog_(catalog),
        Root(root), Out(out) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseDecl(Decl *decl) {
    if (!decl)
      return true;
    // The standard library and other system headers hold no calls of the
    // project's, and are most of a translation unit.
    if (!isa<TranslationUnitDecl>(decl) && decl->getLocation().isValid() &&
        SM.isInSystemHeader(SM.getExpansionLoc(decl->getLocation())))
      return true;
    auto *function = dyn_cast<FunctionDecl>(decl);
    if (function) {
      Functions.push_back(function->getQualifiedNameAsString());
      // What names the function in a site's serial: its name and type, so
      // that overloads are told apart (a lambda's calls are its enclosing
      // function's).
      Scopes.push_back(Functions.back() + " " +
                       function->getType().getAsString());
      FunctionUsrs.push_back(usrOf(function));
      ConstexprFunctions.push_back(function->isConstexpr());
    }
    const Decl *enclosingTop = TopLevel;
    if (decl->getDeclContext() && decl->getDeclContext()->isTranslationUnit())
      TopLevel = decl;
    // Default arguments are not the function's code.
    if (isa<ParmVarDecl>(decl))
      ++Unevaluated;
    bool result = RecursiveASTVisitor::TraverseDecl(decl);
    if (isa<ParmVarDecl>(decl))
      --Unevaluated;
    TopLevel = enclosingTop;
    if (function) {
      Functions.pop_back();
      Scopes.pop_back();
      FunctionUsrs.pop_back();
      ConstexprFunctions.pop_back();
    }
    return result;
  }

  // Operands that are never evaluated: no helper call there is wrapped.
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *expr) {
    ++Unevaluated;
    bool result = RecursiveASTVisitor::TraverseUnaryExprOrTypeTraitExpr(expr);
    --Unevaluated;
    return result;
  }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *expr) {
    ++Unevaluated;
    bool result = RecursiveASTVisitor::TraverseCXXNoexceptExpr(expr);
    --Unevaluated;
    return result;
  }
  bool TraverseCXXTypeidExpr(CXXTypeidExpr *expr) {
    ++Unevaluated;
    bool result = RecursiveASTVisitor::TraverseCXXTypeidExpr(expr);
    --Unevaluated;
    return result;
  }
  bool TraverseDecltypeTypeLoc(DecltypeTypeLoc loc) {
    ++Unevaluated;
    bool result = RecursiveASTVisitor::TraverseDecltypeTypeLoc(loc);
    --Unevaluated;
    return result;
  }

  bool TraverseLambdaExpr(LambdaExpr *lambda) {
    Functions.push_back("lambda");
    bool result = RecursiveASTVisitor::TraverseLambdaExpr(lambda);
    Functions.pop_back();
    return result;
  }

  bool VisitCallExpr(CallExpr *call) {
    const Expr *callee = call->getCallee()->IgnoreParenImpCasts();
    std::string name;
    SourceLocation nameLoc;
    if (const auto *ref = dyn_cast<DeclRefExpr>(callee)) {
      if (!isCatalogFunction(ref->getDecl())) {
        recordProjectCall(call, ref);
        return true;
      }
      name = ref->getDecl()->getNameAsString();
      nameLoc = ref->getLocation();
      Part = operatorPart(dyn_cast<FunctionDecl>(ref->getDecl()));
    } else if (const auto *lookup = dyn_cast<UnresolvedLookupExpr>(callee)) {
      // A dependent call in a template: found by name, as the compiler will.
      name = lookup->getName().getAsString();
      if (!Catalog_.findFunction(name) || lookup->getQualifier())
        return true;
      nameLoc = lookup->getNameLoc();
      Part = OperatorPart::None;
    } else {
      return true;
    }
    CallRefs.insert(callee);
    record(call, name, nameLoc);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *ref) {
    if (!isCatalogFunction(ref->getDecl()))
      return true;
    ValueRefs.push_back(ref);
    return true;
  }

  void finish() {
    // Uses that are not the callee of a call: a function pointer taken.
    for (const DeclRefExpr *ref : ValueRefs) {
      if (CallRefs.count(ref))
        continue;
      SourceLocation loc = SM.getSpellingLoc(ref->getLocation());
      std::string file = fileOf(loc);
      if (file.empty() || !isProjectFile(file, Root))
        continue;
      note(loc, ref->getDecl()->getNameAsString() +
                    " is used as a value, not called: calls through the "
                    "pointer are tracked by msledger's "
                    "interposer, without a site");
    }
  }

private:
  bool isCatalogFunction(const ValueDecl *decl) {
    const auto *function = dyn_cast_or_null<FunctionDecl>(decl);
    if (!function ||
        !function->getDeclContext()->getRedeclContext()->isTranslationUnit() ||
        !function->getIdentifier())
      return false;
    return Catalog_.findFunction(function->getName().str()) ||
           operatorPart(function) != OperatorPart::None;
  }

  /// The part of the operator rule a function is, by its name and its
  /// parameters' types as declared (typedefs kept: "aclOpExecutor **").
  OperatorPart operatorPart(const FunctionDecl *function) {
    const OperatorRule &rule = Catalog_.operators();
    if (!rule.present || !function->getIdentifier())
      return OperatorPart::None;
    std::vector<std::string> types;
    for (const ParmVarDecl *param : function->parameters())
      types.push_back(param->getType().getAsString());
    return rule.partOf(function->getName().str(), types);
  }

  std::string fileOf(SourceLocation loc) {
    FileID id = SM.getFileID(loc);
    OptionalFileEntryRef entry = SM.getFileEntryRefForID(id);
    if (!entry)
      return "";
    return absoluteFileName(SM, entry->getName());
  }

  void note(SourceLocation loc, const std::string &message) {
    PresumedLoc presumed = SM.getPresumedLoc(loc);
    std::string where = presumed.isValid()
                            ? std::string(presumed.getFilename()) + ":" +
                                  std::to_string(presumed.getLine()) + ":" +
                                  std::to_string(presumed.getColumn())
                            : "<unknown>";
    Out.notes.push_back(where + ": note: " + message);
  }

  static std::string usrOf(const Decl *decl) {
    llvm::SmallString<128> usr;
    if (index::generateUSRForDecl(decl->getCanonicalDecl(), usr))
      return "";
    return std::string(usr.str());
  }

  /// A call of a function declared under the root: an edge of the project's
  /// call graph and, if it can be wrapped, a candidate helper call.
  void recordProjectCall(const CallExpr *call, const DeclRefExpr *ref) {
    const auto *function = dyn_cast<FunctionDecl>(ref->getDecl());
    if (!function || isa<CXXMethodDecl>(function) || function->isConstexpr() ||
        FunctionUsrs.empty() || FunctionUsrs.back().empty())
      return;
    std::string declared =
        fileOf(SM.getSpellingLoc(function->getCanonicalDecl()->getLocation()));
    if (declared.empty() || !isProjectFile(declared, Root))
      return;
    // A function template's specialization is its template's code.
    const FunctionDecl *pattern = function->getTemplateInstantiationPattern();
    std::string callee = usrOf(pattern ? pattern : function);
    if (callee.empty())
      return;
    Out.calls.emplace(FunctionUsrs.back(), callee);
    if (Unevaluated || ConstexprFunctions.back())
      return;
    // Wrapped whole: the call's first token, its name and its ')' must be
    // spelled in one file under the root, in that order.
    SourceLocation begin = SM.getSpellingLoc(call->getBeginLoc());
    SourceLocation name = SM.getSpellingLoc(ref->getLocation());
    SourceLocation rparen = SM.getSpellingLoc(call->getRParenLoc());
    std::string file = fileOf(begin);
    if (file.empty() || !isProjectFile(file, Root) ||
        SM.getFileID(begin) != SM.getFileID(rparen) ||
        SM.getFileID(begin) != SM.getFileID(name) ||
        SM.getFileOffset(rparen) <= SM.getFileOffset(name))
      return;
    HelperCall helper;
    helper.callee = callee;
    helper.file = file;
    helper.site.frame = true;
    helper.site.callee = function->getNameAsString();
    helper.site.nameOffset = SM.getFileOffset(begin);
    helper.site.parenOffset = SM.getFileOffset(rparen); // not edited
    helper.site.endOffset = SM.getFileOffset(rparen) + 1;
    helper.site.line = SM.getSpellingLineNumber(begin);
    helper.site.column = SM.getSpellingColumnNumber(begin);
    helper.site.function = Functions.back();
    helper.site.scope = Scopes.back();
    bool invalid = false;
    StringRef buffer = SM.getBufferData(SM.getFileID(begin), &invalid);
    if (invalid)
      return;
    size_t lineStart = buffer.rfind('\n', helper.site.nameOffset);
    lineStart = lineStart == StringRef::npos ? 0 : lineStart + 1;
    size_t lineEnd = buffer.find('\n', helper.site.nameOffset);
    helper.site.lineText =
        buffer.substr(lineStart, lineEnd - lineStart).trim().str();
    Out.contents.emplace(file, buffer.str());
    Out.helperCalls.push_back(std::move(helper));
  }

  void record(const CallExpr *call, const std::string &name,
              SourceLocation nameLoc) {
    if (!FunctionUsrs.empty() && !FunctionUsrs.back().empty())
      Out.callsCatalog.insert(FunctionUsrs.back());
    SourceLocation nameSpelling = SM.getSpellingLoc(nameLoc);
    std::string file = fileOf(nameSpelling);
    if (file.empty() || !isProjectFile(file, Root)) {
      if (file.find("/msledger/track.h") ==
          std::string::npos) // our wrappers are not the user's calls
        ++Out.outsideRoot;
      return;
    }
    if (Functions.empty()) {
      note(nameSpelling,
           "call to " + name +
               " not rewritten: outside any function (a static initializer) a "
               "call cannot carry "
               "its site; the interposer still tracks it, without a site");
      return;
    }
    // The '(' must follow the name in the same spelling: only then can both
    // edits be made in one place, whatever macros the call went through.
    const LangOptions &lang = Context.getLangOpts();
    std::optional<Token> next = Lexer::findNextToken(nameSpelling, SM, lang);
    bool parenthesised = false;
    while (next && next->is(tok::r_paren)) { // (aclrtFree)(p)
      parenthesised = true;
      next = Lexer::findNextToken(next->getLocation(), SM, lang);
    }
    if (parenthesised && !lang.CPlusPlus) {
      // C's wrappers are function-like macros, which a ')' between name and
      // '(' does not expand. Not rewritten for any translation unit: a
      // header's text is one for all of them.
      note(nameSpelling, "call to " + name +
                             " not rewritten: in C, a parenthesised callee "
                             "cannot take its site (msledger's wrappers are "
                             "macros there); the interposer still tracks it, "
                             "without a site");
      Out.unrewritable[file].insert(SM.getFileOffset(nameSpelling));
      return;
    }
    if (!next || !next->is(tok::l_paren) ||
        SM.getFileID(next->getLocation()) != SM.getFileID(nameSpelling)) {
      note(nameSpelling, "call to " + name +
                             " not rewritten: its name and its '(' come from "
                             "different macro expansions; the "
                             "interposer still tracks it, without a site");
      return;
    }
    CallSite site;
    site.callee = name;
    site.operatorPart = Part;
    site.nameOffset = SM.getFileOffset(nameSpelling);
    site.parenOffset = SM.getFileOffset(next->getLocation());
    site.hasArguments =
        call->getNumArgs() > 0 || hasTokensBeforeRParen(next->getLocation());
    site.line = SM.getSpellingLineNumber(nameSpelling);
    site.column = SM.getSpellingColumnNumber(nameSpelling);
    site.function = Functions.empty() ? "" : Functions.back();
    site.scope = Scopes.empty() ? "" : Scopes.back();
    if (TopLevel) {
      SourceLocation top = SM.getExpansionLoc(TopLevel->getBeginLoc());
      if (SM.getFileID(top) == SM.getFileID(nameSpelling) &&
          !SM.isMacroBodyExpansion(nameLoc))
        site.topLevelOffset = SM.getFileOffset(top);
    }
    bool invalid = false;
    StringRef buffer = SM.getBufferData(SM.getFileID(nameSpelling), &invalid);
    if (!invalid) {
      size_t lineStart = buffer.rfind('\n', site.nameOffset);
      lineStart = lineStart == StringRef::npos ? 0 : lineStart + 1;
      size_t lineEnd = buffer.find('\n', site.nameOffset);
      site.lineText =
          buffer.substr(lineStart, lineEnd - lineStart).trim().str();
      Out.contents.emplace(file, buffer.str());
    }
    Out.sites[file].push_back(std::move(site));
  }

  /// Default arguments aside, a call's arguments are the tokens between its
  /// parentheses; a template's dependent call may not know them yet.
  bool hasTokensBeforeRParen(SourceLocation lparen) {
    std::optional<Token> next =
        Lexer::findNextToken(lparen, SM, Context.getLangOpts());
    return next && !next->is(tok::r_paren);
  }

  ASTContext &Context;
  SourceManager &SM;
  const Catalog &Catalog_;
  std::string Root;
  TranslationUnitSites &Out;
  std::set<const Expr *> CallRefs;
  // The operator part of the call being recorded (VisitCallExpr).
  OperatorPart Part = OperatorPart::None;
  std::vector<std::string> Functions;    // enclosing functions, innermost last
  std::vector<std::string> Scopes;       // the named ones', with their types
  std::vector<std::string> FunctionUsrs; // the same, by USR
  std::vector<bool> ConstexprFunctions;  // the same: constexpr or not
  int Unevaluated = 0; // inside sizeof, decltype, a default argument, ...
  const Decl *TopLevel = nullptr; // the file-scope declaration being visited
  std::vector<const DeclRefExpr *> ValueRefs;
};

class CollectorConsumer : public ASTConsumer {
public:
  CollectorConsumer(const Catalog &catalog, const std::string &root,
                    TranslationUnitSites &out)
      : Catalog_(catalog), Root(root), Out(out) {}
  void HandleTranslationUnit(ASTContext &context) override {
    Collector collector(context, Catalog_, Root, Out);
    collector.TraverseDecl(context.getTranslationUnitDecl());
    collector.finish();
  }

private:
  const Catalog &Catalog_;
  std::string Root;
  TranslationUnitSites &Out;
};

} // namespace

namespace {

class SkippedBranchReporter : public PPCallbacks {
public:
  SkippedBranchReporter(const Catalog &catalog, const std::string &root,
                        SourceManager &sm, TranslationUnitSites &out)
      : Catalog_(catalog), Root(root), SM(sm), Out(out) {}

  void SourceRangeSkipped(SourceRange range, SourceLocation) override {
    SourceLocation begin = SM.getExpansionLoc(range.getBegin());
    OptionalFileEntryRef entry = SM.getFileEntryRefForID(SM.getFileID(begin));
    if (!entry)
      return;
    std::string file = absoluteFileName(SM, entry->getName());
    if (!isProjectFile(file, Root))
      return;
    bool invalid = false;
    StringRef buffer = SM.getBufferData(SM.getFileID(begin), &invalid);
    if (invalid)
      return;
    unsigned start = SM.getFileOffset(begin);
    unsigned end = std::min<unsigned>(
        SM.getFileOffset(SM.getExpansionLoc(range.getEnd())), buffer.size());
    // Identifiers followed by '(' in the skipped text.
    for (unsigned i = start; i < end; ++i) {
      if (!(clang::isAsciiIdentifierStart(buffer[i]) || buffer[i] == '_') ||
          (i > 0 && (clang::isAsciiIdentifierContinue(buffer[i - 1]) ||
                     buffer[i - 1] == '_')))
        continue;
      unsigned j = i;
      while (j < end &&
             (clang::isAsciiIdentifierContinue(buffer[j]) || buffer[j] == '_'))
        ++j;
      unsigned k = j;
      while (k < end && (buffer[k] == ' ' || buffer[k] == '\t'))
        ++k;
      std::string name = buffer.substr(i, j - i).str();
      if (k < end && buffer[k] == '(' && Catalog_.findFunction(name)) {
        unsigned line = SM.getLineNumber(SM.getFileID(begin), i);
        Out.notes.push_back(std::string(entry->getName()) + ":" +
                            std::to_string(line) + ": note: call to " + name +
                            " not rewritten: it is in a preprocessor branch "
                            "this build does not compile");
      }
      i = j;
    }
  }

private:
  const Catalog &Catalog_;
  std::string Root;
  SourceManager &SM;
  TranslationUnitSites &Out;
};

} // namespace

std::unique_ptr<PPCallbacks>
makeSkippedBranchReporter(const Catalog &catalog, const std::string &root,
                          SourceManager &sm, TranslationUnitSites &out) {
  return std::make_unique<SkippedBranchReporter>(catalog, root, sm, out);
}

void recordProjectFiles(SourceManager &sm, const std::string &root,
                        TranslationUnitSites &out) {
  for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) {
    std::string file = absoluteFileName(sm, it->getFirst().getName());
    if (isUnder(file, root))
      out.projectFiles.insert(file);
  }
}

std::vector<const HelperCall *> reachingHelperCalls(
    const std::vector<const HelperCall *> &calls,
    const std::set<std::string> &callsCatalog,
    const std::set<std::pair<std::string, std::string>> &edges) {
  // Callers of a reaching function reach, until nothing changes.
  std::set<std::string> reaching = callsCatalog;
  std::map<std::string, std::vector<std::string>> callers;
  for (const auto &edge : edges)
    callers[edge.second].push_back(edge.first);
  std::vector<std::string> work(reaching.begin(), reaching.end());
  while (!work.empty()) {
    std::string function = work.back();
    work.pop_back();
    for (const std::string &caller : callers[function])
      if (reaching.insert(caller).second)
        work.push_back(caller);
  }
  std::vector<const HelperCall *> result;
  for (const HelperCall *call : calls)
    if (reaching.count(call->callee))
      result.push_back(call);
  return result;
}

std::unique_ptr<ASTConsumer> makeCollector(const Catalog &catalog,
                                           const std::string &root,
                                           TranslationUnitSites &out) {
  return std::make_unique<CollectorConsumer>(catalog, root, out);
}

namespace {

/// The collector with its preprocessor callbacks, for one translation unit.
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

class CollectActionFactory : public tooling::FrontendActionFactory {
public:
  CollectActionFactory(const Catalog &catalog, const std::string &root,
                       TranslationUnitSites &out, bool *failed, bool quiet)
      : Catalog_(catalog), Root(root), Out(out), Failed(failed), Quiet(quiet) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<CollectAction>(Catalog_, Root, Out, Failed, Quiet);
  }

private:
  const Catalog &Catalog_;
  const std::string &Root;
  TranslationUnitSites &Out;
  bool *Failed;
  bool Quiet;
};

} // namespace

bool collectTranslationUnit(const tooling::CompilationDatabase &database,
                            const std::string &file, const Catalog &catalog,
                            const std::string &root,
                            const ParseSettings &settings,
                            TranslationUnitSites &out,
                            DiagnosticConsumer *diagnostics) {
  // A file system with a working directory of its own: the shared real one
  // follows each command's directory with chdir(), which parallel parses
  // (msrewrite -j) would race on -- a file read in the wrong directory, or
  // the process left in one a later parse cannot resolve.
  tooling::ClangTool tool(database, {file},
                          std::make_shared<PCHContainerOperations>(),
                          llvm::vfs::createPhysicalFileSystem());
  if (diagnostics) {
    tool.setDiagnosticConsumer(diagnostics);
    tool.setPrintErrorMessage(false);
  }
  tool.appendArgumentsAdjuster(tooling::getClangStripOutputAdjuster());
  // A parse must not write the build's dependency files.
  tool.appendArgumentsAdjuster(tooling::getClangStripDependencyFileAdjuster());
  tool.appendArgumentsAdjuster(tooling::getClangSyntaxOnlyAdjuster());
  // An explicit resource directory: builtin headers work from any install
  // and any directory.
  std::vector<std::string> extra = {"-resource-dir=" + settings.resourceDir,
                                    "-w", "-Wno-unknown-warning-option"};
  extra.insert(extra.end(), settings.extraFlags.begin(),
               settings.extraFlags.end());
  tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
      extra, tooling::ArgumentInsertPosition::END));
  bool failed = false;
  CollectActionFactory factory(catalog, root, out, &failed,
                               diagnostics != nullptr);
  return tool.run(&factory) == 0 && !failed;
}

} // namespace msledger
