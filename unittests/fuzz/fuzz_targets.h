//===- fuzz_targets.h - The fuzzed readers of msledger's inputs -*- C++ -*-===//
//
// Contract: one function per input a user (or a CI job) hands msledger and
// that it parses -- a JSON report given to `merge`, a snapshot (`diff`,
// `growth`, `timeline`), a job status file, a suppression file, a baseline
// (--baseline, `msledger baseline`: a report, SARIF log or baseline file). Each
// takes any bytes and runs them through the reader and, when the reader accepts
// them, through everything that consumes what it read (the merged text,
// JSON and SARIF; the diff and growth reports; the suppression tables; a
// baseline's file, its comparison with a report and its summaries). It
// must never crash, abort, throw, hang or read out of bounds: libFuzzer
// (libfuzzer_main.cpp, utils/sanitize.sh fuzz) and the corpus replay
// (CorpusTest.cpp) call them. Each returns whether the reader accepted the
// input, so that the corpus's valid seeds stay valid.
//
//===----------------------------------------------------------------------===//
#ifndef MSLEDGER_FUZZ_TARGETS_H
#define MSLEDGER_FUZZ_TARGETS_H

#include <cstddef>
#include <cstdint>

namespace msledger {

bool fuzzMergeInput(const uint8_t *data, size_t size);
bool fuzzSnapshot(const uint8_t *data, size_t size);
bool fuzzJobStatus(const uint8_t *data, size_t size);
bool fuzzSuppressions(const uint8_t *data, size_t size);
bool fuzzBaseline(const uint8_t *data, size_t size);

} // namespace msledger

#endif
