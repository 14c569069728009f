//===- site_registry.h - Call sites and call chains, interned ---*- C++ -*-===//
//
// Contract: a SiteRegistry gives each call site (an msledger_site, which
// lives as long as the process: the rewriter's are static, the swapped-header
// ones are never freed) and each call chain (a site with the rewritten
// helper calls that led to it, msledger_frame_push) a small id that a record
// keeps: 0 for none, 1 to kSiteSlots for sites, then chains. Lock-free
// fixed open-addressed tables: intern() of a site seen before is a probe or
// two, of a thread's chain seen last a few compares; a chain keeps the
// innermost `chainDepth` callers (at most kMaxChain). When a table is too
// full to take more, the event is kept without its site (or without its
// callers) and `note` is called once with a line saying so.
//
// Each site and chain interned is written to the journal given at
// construction, when it is active; replayInto() writes all of them to a
// journal opened later (a forked child's). An id keeps naming the same site
// and chain for the registry's life; table() reads them for reports.
//
// The calling thread's frames (msledger_frame_push/pop, msledger.h) are the
// thread's, whatever registry interns its events.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_RUNTIME_SITE_REGISTRY_H
#define MSLEDGER_RUNTIME_SITE_REGISTRY_H

#include "events.h"
#include "journal.h"
#include "msledger/msledger.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace msledger {

namespace detail {
/// The thread's call chain (msledger_frame_push): the sites of the rewritten
/// helper calls it is in, outermost first. Deeper calls are counted, not
/// kept.
constexpr unsigned kMaxFrames = 32;
struct FrameStack {
  unsigned depth;
  const msledger_site *frames[kMaxFrames];
};
// __thread: plain data, no dynamic initializer to check at each access.
extern __thread FrameStack CurrentFrames
    __attribute__((tls_model("initial-exec")));
} // namespace detail

class SiteRegistry {
public:
  static constexpr uint32_t kSiteSlots = 1U << 16;
  static constexpr uint32_t kChainSlots = 1U << 15;
  /// The callers a chain keeps at most.
  static constexpr unsigned kMaxChain = 16;
  static_assert(kSiteSlots + kChainSlots <= kMaxSite,
                "site and chain ids fit a record");

  using Note = std::function<void(const std::string &line)>;
  SiteRegistry(unsigned chainDepth, Journal &journal, Note note);
  ~SiteRegistry();
  SiteRegistry(const SiteRegistry &) = delete;
  SiteRegistry &operator=(const SiteRegistry &) = delete;

  /// The id of `site` with the calling thread's chain, if it has one.
  /// Inline: every event interns its site.
  uint32_t intern(const msledger_site *site) {
    if (detail::CurrentFrames.depth == 0 || ChainDepth == 0)
      return site ? internSite(site) : 0;
    return internInChain(site);
  }
  /// The id of `site` alone.
  uint32_t internSite(const msledger_site *site);

  /// The site of an id: a chain's innermost call; null for 0 or an id not
  /// interned.
  const msledger_site *site(uint32_t id) const;
  /// The callers of a chain's site, innermost first; empty for a plain site.
  std::vector<const msledger_site *> callers(uint32_t id) const;
  /// How reports read this registry's ids.
  SiteTable table() const;
  /// Writes every site and chain interned so far to `journal`.
  void replayInto(Journal &journal);
  size_t memoryBytes() const;

private:
  struct Chain {
    std::atomic<uint32_t> state; // 0 empty, 1 being written, 2 published
    uint32_t count;
    const msledger_site *site;
    const msledger_site *callers[kMaxChain]; // innermost first
  };
  uint32_t internInChain(const msledger_site *site);
  uint32_t internChain(const msledger_site *site,
                       const msledger_site *const *callers, unsigned count);
  void journalChain(Journal &journal, uint32_t index, const Chain &chain);

  const uint32_t Id; // tells the thread's last chain of this registry apart
  const unsigned ChainDepth;
  Journal &Out;
  Note Say;
  std::atomic<const msledger_site *> *Sites;
  std::atomic<Chain *> Chains{nullptr}; // allocated at the first chain
  std::atomic<bool> SitesFullSaid{false}, ChainsFullSaid{false};
};

} // namespace msledger

#endif
