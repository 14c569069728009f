//===- site_registry.cpp - Call sites and call chains, interned -----------===//
#include "site_registry.h"

#include <algorithm>
#include <cstdlib>

namespace msledger {

namespace detail {
__thread FrameStack CurrentFrames;
} // namespace detail

namespace {

// The thread's last interned chain: loops allocate through the same chain
// again and again, and comparing a few pointers is cheaper than a lookup.
struct LastChain {
  uint32_t registry;
  const msledger_site *site;
  unsigned count;
  uint32_t id;
  const msledger_site *callers[SiteRegistry::kMaxChain];
};
__attribute__((tls_model("initial-exec"))) thread_local LastChain Last;

// Registry numbers start at 1: a thread's LastChain of 0 belongs to none.
std::atomic<uint32_t> NextRegistryId{1};

} // namespace

SiteRegistry::SiteRegistry(unsigned chainDepth, Journal &journal, Note note)
    : Id(NextRegistryId.fetch_add(1, std::memory_order_relaxed)),
      ChainDepth(std::min(chainDepth, kMaxChain)), Out(journal),
      Say(std::move(note)) {
  Sites = static_cast<std::atomic<const msledger_site *> *>(
      calloc(kSiteSlots, sizeof(*Sites)));
}

SiteRegistry::~SiteRegistry() {
  free(Sites);
  free(Chains.load());
}

uint32_t SiteRegistry::internSite(const msledger_site *site) {
  if (!site || !Sites)
    return 0;
  uint64_t h = reinterpret_cast<uintptr_t>(site) * 0x9E3779B97F4A7C15ULL;
  uint32_t start = static_cast<uint32_t>(h >> 48) & (kSiteSlots - 1);
  // Give up well before the table is full: probes stay short.
  for (uint32_t probe = 0; probe < 512; ++probe) {
    uint32_t index = (start + probe) & (kSiteSlots - 1);
    const msledger_site *seen = Sites[index].load(std::memory_order_acquire);
    if (seen == site)
      return index + 1;
    if (!seen) {
      const msledger_site *expected = nullptr;
      if (Sites[index].compare_exchange_strong(expected, site,
                                               std::memory_order_acq_rel)) {
        if (Out.active())
          Out.site(index + 1, site);
        return index + 1;
      }
      if (expected == site)
        return index + 1;
    }
  }
  if (!SitesFullSaid.exchange(true) && Say)
    Say("msledger: too many call sites; further events are reported without "
        "their location\n");
  return 0;
}

uint32_t SiteRegistry::internInChain(const msledger_site *site) {
  const detail::FrameStack &frames = detail::CurrentFrames;
  // The innermost callers kept, innermost first: frames[kept - 1 - i].
  unsigned kept = std::min(frames.depth, detail::kMaxFrames);
  unsigned count = std::min(kept, ChainDepth);
  bool same = Last.registry == Id && Last.site == site && Last.count == count;
  for (unsigned i = 0; same && i < count; ++i)
    same = Last.callers[i] == frames.frames[kept - 1 - i];
  if (same)
    return Last.id;
  // A chain not seen last: rare, so the copy may be zeroed first (GCC cannot
  // see that count > 0, and warns of the rest).
  const msledger_site *callers[kMaxChain] = {};
  for (unsigned i = 0; i < count; ++i)
    callers[i] = frames.frames[kept - 1 - i];
  uint32_t id = internChain(site, callers, count);
  Last.registry = Id;
  Last.site = site;
  Last.count = count;
  Last.id = id;
  std::copy(callers, callers + count, Last.callers);
  return id;
}

void SiteRegistry::journalChain(Journal &journal, uint32_t index,
                                const Chain &chain) {
  uint32_t callerIds[kMaxChain];
  for (unsigned i = 0; i < chain.count; ++i)
    callerIds[i] = internSite(chain.callers[i]);
  journal.chain(kSiteSlots + index + 1, internSite(chain.site), callerIds,
                chain.count);
}

uint32_t SiteRegistry::internChain(const msledger_site *site,
                                   const msledger_site *const *callers,
                                   unsigned count) {
  Chain *chains = Chains.load(std::memory_order_acquire);
  if (!chains) {
    Chain *fresh = static_cast<Chain *>(calloc(kChainSlots, sizeof(Chain)));
    if (!fresh)
      return internSite(site);
    if (Chains.compare_exchange_strong(chains, fresh,
                                       std::memory_order_acq_rel))
      chains = fresh;
    else
      free(fresh); // another thread's table won
  }
  uint64_t h = reinterpret_cast<uintptr_t>(site) * 0x9E3779B97F4A7C15ULL;
  for (unsigned i = 0; i < count; ++i)
    h = (h ^ reinterpret_cast<uintptr_t>(callers[i])) * 0x9E3779B97F4A7C15ULL;
  uint32_t start = static_cast<uint32_t>(h >> 40) & (kChainSlots - 1);
  for (uint32_t probe = 0; probe < 512; ++probe) {
    uint32_t index = (start + probe) & (kChainSlots - 1);
    Chain &chain = chains[index];
    uint32_t state = chain.state.load(std::memory_order_acquire);
    if (state == 0) {
      uint32_t expected = 0;
      if (chain.state.compare_exchange_strong(expected, 1,
                                              std::memory_order_acq_rel)) {
        chain.site = site;
        chain.count = count;
        std::copy(callers, callers + count, chain.callers);
        chain.state.store(2, std::memory_order_release);
        if (Out.active())
          journalChain(Out, index, chain);
        return kSiteSlots + index + 1;
      }
      state = expected;
    }
    while (state == 1) // being written by another thread: a few stores
      state = chain.state.load(std::memory_order_acquire);
    if (chain.site == site && chain.count == count &&
        std::equal(callers, callers + count, chain.callers))
      return kSiteSlots + index + 1;
  }
  if (!ChainsFullSaid.exchange(true) && Say)
    Say("msledger: too many call chains; further events are reported "
        "without their callers\n");
  return internSite(site);
}

const msledger_site *SiteRegistry::site(uint32_t id) const {
  if (id == 0 || !Sites)
    return nullptr;
  if (id <= kSiteSlots)
    return Sites[id - 1].load(std::memory_order_acquire);
  Chain *chains = Chains.load(std::memory_order_acquire);
  if (!chains || id - kSiteSlots - 1 >= kChainSlots)
    return nullptr;
  return chains[id - kSiteSlots - 1].site;
}

std::vector<const msledger_site *> SiteRegistry::callers(uint32_t id) const {
  Chain *chains = Chains.load(std::memory_order_acquire);
  if (id <= kSiteSlots || !chains || id - kSiteSlots - 1 >= kChainSlots)
    return {};
  const Chain &chain = chains[id - kSiteSlots - 1];
  return std::vector<const msledger_site *>(chain.callers,
                                            chain.callers + chain.count);
}

SiteTable SiteRegistry::table() const {
  return {[this](uint32_t id) { return site(id); },
          [this](uint32_t id) { return callers(id); }};
}

void SiteRegistry::replayInto(Journal &journal) {
  // One interned meanwhile may be written twice, the same both times.
  for (uint32_t index = 0; Sites && index < kSiteSlots; ++index)
    if (const msledger_site *site =
            Sites[index].load(std::memory_order_acquire))
      journal.site(index + 1, site);
  if (Chain *chains = Chains.load(std::memory_order_acquire))
    for (uint32_t index = 0; index < kChainSlots; ++index)
      if (chains[index].state.load(std::memory_order_acquire) == 2)
        journalChain(journal, index, chains[index]);
}

size_t SiteRegistry::memoryBytes() const {
  return sizeof(*this) + kSiteSlots * sizeof(*Sites) +
         (Chains.load() ? kChainSlots * sizeof(Chain) : 0);
}

} // namespace msledger

// Outside the namespace: defined there, a C function would not take the
// visibility its declaration in msledger.h gives it.
extern "C" void msledger_frame_push(const msledger_site *site) {
  auto &frames = msledger::detail::CurrentFrames;
  unsigned depth = frames.depth;
  if (depth < msledger::detail::kMaxFrames)
    frames.frames[depth] = site;
  frames.depth = depth + 1;
}

extern "C" void msledger_frame_pop(void) {
  auto &frames = msledger::detail::CurrentFrames;
  if (frames.depth)
    --frames.depth;
}
