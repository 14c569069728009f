#!/usr/bin/env python3
"""Runs msledger's benchmarks and prints what tracking costs.

Usage: utils/benchmarks/run.py [BUILD_DIR] [--repetitions N]

Runs the simulated-device benchmark in alternating processes -- untracked,
then with libmsledger preloaded (CANN level only, then both levels) -- N times
each, so that the baseline is measured in the same run, and reports medians:
ns added per aclrtMalloc+aclrtFree pair, what the copy checks add to an
aclrtMemcpy, two-thread scaling of the ledger (each thread releasing what it
acquired, and one thread releasing what the other acquired),
what the crash-safe journal adds per event, ledger bytes per live
allocation and the time of a report over 1,000,000 live allocations.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys


def run(binary, env_extra, bench_filter, repetitions):
    env = dict(os.environ)
    env.update(env_extra)
    env.setdefault("MSSIM_RUN_DIR", "/tmp/mssim-benchmark")
    out = subprocess.run([binary, "--benchmark_filter=" + bench_filter, "--benchmark_format=json",
                          "--benchmark_min_time=0.3", "--benchmark_repetitions=%d" % repetitions,
                          "--benchmark_report_aggregates_only=false"],
                         env=env, capture_output=True, text=True, check=True).stdout
    results = {}
    for bench in json.loads(out)["benchmarks"]:
        if bench.get("run_type") == "aggregate":
            continue
        results.setdefault(bench["run_name"], []).append(bench)
    return results


def median_ns_per_item(runs):
    # real time per iteration is per thread; items/s covers all threads.
    return statistics.median(1e9 / r["items_per_second"] for r in runs)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build", nargs="?", default="build")
    parser.add_argument("--repetitions", type=int, default=5)
    args = parser.parse_args()
    binary = os.path.join(args.build, "bin", "ledger_benchmark")
    library = os.path.join(args.build, "lib", "libmsledger_preload.so")
    if not os.path.exists(binary):
        sys.exit("run.py: %s not found: build first (utils/setup.sh)" % binary)

    configs = [("untracked", {}),
               ("interposed, both levels off", {"LD_PRELOAD": library,
                                                "MSLEDGER_OPTIONS": "check_device_heap=0:check_cann_heap=0:"
                                                                    "leak_check=0:exitcode=0"}),
               ("tracked, CANN level", {"LD_PRELOAD": library,
                                        "MSLEDGER_OPTIONS": "check_device_heap=0:leak_check=0:exitcode=0"}),
               ("tracked, both levels", {"LD_PRELOAD": library,
                                         "MSLEDGER_OPTIONS": "leak_check=0:exitcode=0"})]
    sim = {name: {} for name, _ in configs}
    for _ in range(args.repetitions):  # alternate, so that drift hits all alike
        for name, env in configs:
            for run_name, runs in run(binary, env, "SimPair", 1).items():
                sim[name].setdefault(run_name, []).extend(runs)

    print("Simulated device, aclrtMalloc + aclrtFree of 1 KiB (median of %d runs, ns per pair):" % args.repetitions)
    for threads in ("SimPair/real_time/threads:1", "SimPair/real_time/threads:2"):
        base = median_ns_per_item(sim["untracked"][threads])
        line = "  %-28s untracked %7.1f" % (threads.replace("/real_time", ""), base)
        for name, _ in configs[1:]:
            value = median_ns_per_item(sim[name][threads])
            line += " | %s %7.1f (+%.1f ns, %.2fx)" % (name, value, value - base, value / base)
        print(line)

    copies = {name: [] for name in ("untracked", "leaks only", "checked", "checked, both levels")}
    copy_configs = [("untracked", {}),
                    ("leaks only", {"LD_PRELOAD": library,
                                    "MSLEDGER_OPTIONS": "check_device_heap=0:check_access=0:leak_check=0:exitcode=0"}),
                    ("checked", {"LD_PRELOAD": library,
                                 "MSLEDGER_OPTIONS": "check_device_heap=0:leak_check=0:exitcode=0"}),
                    ("checked, both levels", {"LD_PRELOAD": library,
                                              "MSLEDGER_OPTIONS": "leak_check=0:exitcode=0"})]
    for _ in range(args.repetitions):  # alternate
        for name, env in copy_configs:
            copies[name] += run(binary, env, "SimCopy", 1)["SimCopy/real_time"]
    base = median_ns_per_item(copies["untracked"])
    line = "Copy checks, aclrtMemcpy of 1 KiB into a device buffer (median of %d, ns per copy): untracked %.1f" % (
        args.repetitions, base)
    for name, _ in copy_configs[1:]:
        value = median_ns_per_item(copies[name])
        line += " | %s %.1f (+%.1f ns)" % (name, value, value - base)
    print(line)
    checks = run(binary, {}, "AccessCheck", args.repetitions)
    print("  the check alone, 10,000 live buffers: %.1f ns into the middle of one (range index), "
          "%.1f ns at its start (one lookup)"
          % (median_ns_per_item(checks["AccessCheck/interior/real_time"]),
             median_ns_per_item(checks["AccessCheck/start/real_time"])))

    ledger = run(binary, {}, "LedgerPair|CrossThread|LockFloor|LiveRecords|Report1M", args.repetitions)
    one = median_ns_per_item(ledger["LedgerPair/real_time/threads:1"])
    two = median_ns_per_item(ledger["LedgerPair/real_time/threads:2"])
    cross = median_ns_per_item(ledger["CrossThread/LedgerPair/real_time/threads:2"])
    handoff = median_ns_per_item(ledger["CrossThread/HandOffAlone/real_time/threads:2"])
    print("Ledger alone, one acquire + one release (median of %d):" % args.repetitions)
    print("  1 thread %.1f ns per pair; 2 threads %.1f ns per pair overall: %.2fx the throughput"
          % (one, two, one / two))
    print("  acquired on one thread, released on the other: %.1f ns per pair, %.2fx one thread's throughput "
          "(the hand-off between them alone: %.1f ns)" % (cross, one / cross, handoff))
    print("  the floor of any table with a lock per event: two uncontended lock + unlock pairs %.1f ns"
          % median_ns_per_item(ledger["LockFloor/real_time"]))
    chains = run(binary, {}, "HelperCall|LedgerPairInChain|LedgerPair/real_time/threads:1", args.repetitions)
    plain = median_ns_per_item(chains["HelperCall"])
    framed = median_ns_per_item(chains["HelperCallFramed"])
    print("Call chains (median of %d): a helper call %.1f ns, with its frame %.1f ns: +%.1f ns per helper call"
          % (args.repetitions, plain, framed, framed - plain))
    alone = median_ns_per_item(chains["LedgerPair/real_time/threads:1"])
    chained = median_ns_per_item(chains["LedgerPairInChain/real_time"])
    print("  acquire + release inside three helpers %.1f ns per pair, outside %.1f ns: +%.1f ns"
          % (chained, alone, chained - alone))
    journal_path = "/dev/shm/msledger-benchmark.journal" if os.path.isdir("/dev/shm") else "/tmp/msledger-benchmark.journal"
    journal_options = "leak_check=0:journal_size_mb=1024:journal_path=" + journal_path
    # In one process, batches with the journal paused and not alternate, so
    # both see the same machine; processes alternating are the cross-check.
    cost = []
    for _ in range(args.repetitions):
        cost += run(binary, {"MSLEDGER_OPTIONS": journal_options}, "JournalCost", 1)["JournalCost"]
        os.unlink(journal_path)
    print("Journal (median of %d, batches alternating in one process): acquire + release %.1f ns without, "
          "%.1f ns with: +%.1f ns per event"
          % (args.repetitions, statistics.median(r["pair_ns_without"] for r in cost),
             statistics.median(r["pair_ns_with"] for r in cost), statistics.median(r["event_ns_added"] for r in cost)))
    plain_pairs, journal_pairs = [], []
    for _ in range(args.repetitions):  # alternate
        plain_pairs += run(binary, {"MSLEDGER_OPTIONS": "leak_check=0"}, "LedgerPair/real_time/threads:1", 1)[
            "LedgerPair/real_time/threads:1"]
        journal_pairs += run(binary, {"MSLEDGER_OPTIONS": journal_options},
                             "LedgerPair/real_time/threads:1", 1)["LedgerPair/real_time/threads:1"]
        os.unlink(journal_path)
    without, with_journal = median_ns_per_item(plain_pairs), median_ns_per_item(journal_pairs)
    print("  processes alternating: %.1f ns without, %.1f ns with: +%.1f ns per event (noisier)"
          % (without, with_journal, (with_journal - without) / 2))
    per = statistics.median(r["bytes_per_live_allocation"] for r in ledger["LiveRecords/iterations:1"])
    print("Ledger memory at 1,000,000 live allocations: %.1f bytes per allocation" % per)
    report = statistics.median(r["real_time"] for r in ledger["Report1M/iterations:3"])
    size = ledger["Report1M/iterations:3"][0]["report_bytes"]
    print("Report over 1,000,000 live allocations: %.0f ms (%.0f MB of text)" % (report, size / 1e6))


if __name__ == "__main__":
    main()
