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

RewritePlan planRewrite(const tooling::CompilationDatabase &database,
                        const std::vector<std::string> &files,
                        const Catalog &catalog,
                        const std::set<std::string> &additions,
                        const std::string &root, const ParseSettings &settings,
                        unsigned jobs, DiagnosticConsumer *diagnostics) {
  std::vector<TranslationUnitSites> results(files.size());
  std::vector<char> ok(files.size(), 0);
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < files.size();)
      ok[i] = collectTranslationUnit(database, files[i], catalog, root,
                                     settings, results[i], diagnostics);
  };
  std::vector<std::thread> threads;
  // A diagnostic consumer is not thread-safe: given one, parse serially.
  unsigned threadCount = diagnostics ? 1 : std::max(1u, jobs);
  for (unsigned t = 1; t < threadCount; ++t)
    threads.emplace_back(worker);
  worker();
  for (auto &thread : threads)
    thread.join();

  RewritePlan rewrite;
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
    if (!rewrite.failedFiles.count(file) && text && isInstrumented(*text))
      rewrite.instrumented.push_back(file);
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
    FileRewrite planned{path, relativeTo(path, root), before, "", entry.second};
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
