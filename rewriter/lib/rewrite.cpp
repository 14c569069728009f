//===- rewrite.cpp - Planning the rewrite of translation units ------------===//
#include "rewrite.h"
#include "paths.h"
#include "text_file.h"
#include "wrappers.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <thread>

using namespace clang;

namespace msledger {

namespace {

/// What the parses found, merged over translation units.
struct Merged {
  std::map<std::string, std::vector<CallSite>> sites; // by file
  std::map<std::string, std::string> contents;
  std::map<std::string, std::set<unsigned>> unrewritable;
};

/// Parses `files`, `threadCount` at a time; ok[i] says whether file i
/// compiled.
std::vector<TranslationUnitSites>
parseAll(const tooling::CompilationDatabase &database,
         const std::vector<std::string> &files, const Catalog &catalog,
         const std::string &root, const ParseSettings &settings,
         unsigned threadCount, DiagnosticConsumer *diagnostics,
         std::vector<char> *ok) {
  std::vector<TranslationUnitSites> results(files.size());
  ok->assign(files.size(), 0);
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < files.size();)
      (*ok)[i] = collectTranslationUnit(database, files[i], catalog, root,
                                        settings, results[i], diagnostics);
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < threadCount; ++t)
    threads.emplace_back(worker);
  worker();
  for (auto &thread : threads)
    thread.join();
  return results;
}

/// Merges what the translation units that compiled found; the calls of
/// helpers that reach a catalog call in any of them join the sites.
Merged merge(const std::vector<std::string> &files,
             const std::vector<TranslationUnitSites> &results,
             const std::vector<char> &ok, RewritePlan &rewrite) {
  Merged merged;
  std::set<std::string> callsCatalog;
  std::set<std::pair<std::string, std::string>> edges;
  std::vector<const HelperCall *> helperCalls;
  for (size_t i = 0; i < files.size(); ++i) {
    if (!ok[i]) {
      rewrite.failedFiles.insert(normalisePath(files[i]));
      continue;
    }
    const TranslationUnitSites &tu = results[i];
    for (auto &entry : tu.sites)
      merged.sites[entry.first].insert(merged.sites[entry.first].end(),
                                       entry.second.begin(),
                                       entry.second.end());
    for (auto &entry : tu.unrewritable)
      merged.unrewritable[entry.first].insert(entry.second.begin(),
                                              entry.second.end());
    merged.contents.insert(tu.contents.begin(), tu.contents.end());
    rewrite.notes.insert(tu.notes.begin(), tu.notes.end());
    rewrite.outside += tu.outsideRoot;
    rewrite.projectFiles.insert(tu.projectFiles.begin(), tu.projectFiles.end());
    callsCatalog.insert(tu.callsCatalog.begin(), tu.callsCatalog.end());
    edges.insert(tu.calls.begin(), tu.calls.end());
    for (const HelperCall &call : tu.helperCalls)
      helperCalls.push_back(&call);
  }
  for (const HelperCall *call :
       reachingHelperCalls(helperCalls, callsCatalog, edges))
    merged.sites[call->file].push_back(call->site);
  return merged;
}

/// The file's instrumented text, its sites numbered. A catalog addition has
/// no macro in msledger/track.h: its wrapper is defined in the file, on the
/// line of the first declaration calling it (a call in a macro body, which
/// has none, is noted instead).
void instrumentFile(FileRewrite &planned, const Catalog &catalog,
                    const std::set<std::string> &additions,
                    std::set<std::string> &notes) {
  assignSerials(planned.relative, planned.sites);
  WrapperInsertions wrappers;
  std::map<std::string, long> firstUse;
  std::vector<CallSite> kept;
  for (const CallSite &site : planned.sites) {
    if (!additions.count(site.callee)) {
      kept.push_back(site);
      continue;
    }
    if (site.topLevelOffset < 0) {
      notes.insert(planned.relative + ":" + std::to_string(site.line) +
                   ": note: call to " + site.callee +
                   " not rewritten: a catalog addition called from a macro "
                   "body gets no wrapper yet");
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
      instrument(planned.before, planned.relative, planned.sites, wrappers);
}

} // namespace

RewritePlan planRewrite(const tooling::CompilationDatabase &database,
                        const std::vector<std::string> &files,
                        const Catalog &catalog,
                        const std::set<std::string> &additions,
                        const std::string &root, const ParseSettings &settings,
                        unsigned jobs, DiagnosticConsumer *diagnostics) {
  // A diagnostic consumer is not thread-safe: given one, parse serially.
  std::vector<char> ok;
  std::vector<TranslationUnitSites> results =
      parseAll(database, files, catalog, root, settings,
               diagnostics ? 1 : std::max(1u, jobs), diagnostics, &ok);
  RewritePlan rewrite;
  Merged merged = merge(files, results, ok, rewrite);
  for (const std::string &file : files) {
    std::string error;
    std::optional<std::string> text = readTextFile(file, &error);
    if (!rewrite.failedFiles.count(file) && text && isInstrumented(*text))
      rewrite.instrumented.push_back(file);
  }
  for (auto &[path, sites] : merged.sites) {
    if (rewrite.failedFiles.count(path))
      continue;
    const std::string &before = merged.contents[path];
    if (isInstrumented(before))
      continue; // the files named are counted above; headers stay as they are
    // A call one translation unit could not compile rewritten stays as it
    // is for all of them (noted where it was seen).
    if (auto skipped = merged.unrewritable.find(path);
        skipped != merged.unrewritable.end())
      sites.erase(std::remove_if(sites.begin(), sites.end(),
                                 [&](const CallSite &site) {
                                   return !site.frame && skipped->second.count(
                                                             site.nameOffset);
                                 }),
                  sites.end());
    if (sites.empty())
      continue;
    FileRewrite planned{path, relativeTo(path, root), before, "", sites};
    instrumentFile(planned, catalog, additions, rewrite.notes);
    rewrite.sites += planned.sites.size();
    rewrite.files.push_back(std::move(planned));
  }
  return rewrite;
}

std::string alreadyInstrumentedNote(const std::string &file) {
  return "msrewrite: note: " + file +
         " is already instrumented; left as it is (--revert, then rewrite, to "
         "pick up calls added since)";
}

} // namespace msledger
