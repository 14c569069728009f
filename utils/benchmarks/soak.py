#!/usr/bin/env python3
"""A soak of the journal: a service-shaped program, a billion events, kill -9.

Usage: utils/benchmarks/soak.py [BUILD_DIR] [--events N] [--kills K] [--seed S]
                                [--snapshot-interval SECONDS] [--journal-mb MIB]

Builds utils/benchmarks/soak.c against BUILD_DIR's simulated toolkit,
rewritten by msrewrite (so reports name its lines), and runs it under
BUILD_DIR/bin/msledger with --journal (256 MiB, --journal-mb), snapshots every
second (--snapshot-interval) and a report signal (SIGUSR1) every five
seconds:

  * once to the end (N events, a billion by default): what the process
    reports at exit and what `msledger report JOURNAL` rebuilds must both be
    the program's own bookkeeping, and `msledger growth` must name the
    leaking line and not the cache's. Measured meanwhile: events a second,
    the journal's size on disk, what the machine's disks were written (from
    /proc/diskstats, so anything else writing counts too), the program's
    anonymous memory (RssAnon: the ledger's and the program's own heap)
    over the run, and the checkpoints the journal still holds (how long
    each took, what it held);
  * K times (10) killed with SIGKILL at a random moment of that run's length:
    each time `msledger report JOURNAL` must give exactly what the program's
    bookkeeping (a shared mapping, which the kill leaves as it was) says it
    held, the one call in flight allowed either way.

Figures are printed, never asserted; a run whose report differs from the
truth stops this script, naming it. Prints what it measured as it goes.
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE, MAX_LEAKS = 64, 1 << 16
ALLOCATING, RELEASING = 1, 2


def fail(message):
    sys.exit("soak.py: " + message)


def build(build_dir, work):
    toolkit = os.path.join(build_dir, "simcann")
    msrewrite = os.path.join(build_dir, "bin", "msrewrite")
    shutil.copy(os.path.join(HERE, "soak.c"), os.path.join(work, "soak.c"))
    include = os.path.join(toolkit, "include")
    os.makedirs(os.path.join(work, "build"))
    with open(os.path.join(work, "build", "compile_commands.json"), "w") as out:
        json.dump([{"directory": work, "file": "soak.c",
                    "arguments": ["cc", "-std=c11", "-I", include, "-c", "soak.c"]}], out)
    subprocess.run([msrewrite, "-p", "build", "-i", "soak.c"], cwd=work, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    flags = subprocess.run([msrewrite, "--print-build-flags"], check=True, capture_output=True,
                           text=True).stdout.split()
    lib = os.path.join(toolkit, "lib64")
    subprocess.run(["cc", "-std=c11", "-O2", "-I", include] + flags +
                   ["soak.c", "-L", lib, "-Wl,-rpath," + lib, "-lascendcl", "-o", "soak"],
                   cwd=work, check=True)
    source = open(os.path.join(work, "soak.c")).read().split("\n")
    line = lambda mark: next(i + 1 for i, text in enumerate(source) if '"%s")' % mark in text)
    return os.path.join(work, "soak"), line("LEAK"), line("CACHE")


def read_truth(path):
    """What the program held: {(address, size)}, and the call in flight."""
    data = open(path, "rb").read()
    words = lambda offset, count: struct.unpack_from("<%dQ" % count, data, offset * 8)
    magic, events, pending, pending_address, pending_size, scratch, scratch_size = words(0, 7)
    held = set()
    if magic != 0x4854525441454F53:
        return held, (0, 0, 0), 0  # killed before it began
    if scratch:
        held.add((scratch, scratch_size))
    addresses, sizes = words(7, CACHE), words(7 + CACHE, CACHE)
    held |= {(a, s) for a, s in zip(addresses, sizes) if a}
    (leaks,) = words(7 + 2 * CACHE, 1)
    base = 8 + 2 * CACHE
    held |= set(zip(words(base, leaks), words(base + MAX_LEAKS, leaks)))
    return held, (pending, pending_address, pending_size), events


LEAK_BLOCK = re.compile(r"Direct leak of (\d+) byte\(s\)\n=+ +at (0x[0-9a-f]+) on GM")


def reported(text):
    return {(int(address, 16), int(size)) for size, address in LEAK_BLOCK.findall(text)}


def agrees(report, truth, pending):
    """Whether the report lists what the truth holds, the call in flight
    either way."""
    kind, address, size = pending
    extra, missing = report - truth, truth - report
    if kind == ALLOCATING:
        extra = {e for e in extra if e[1] != size} | set(sorted(e for e in extra
                                                                if e[1] == size)[1:])
    if kind == RELEASING:
        missing = {m for m in missing if m[0] != address}
    return not extra and not missing, extra, missing


def disk_sectors_written():
    total = 0
    with open("/proc/diskstats") as stats:
        for line in stats:
            fields = line.split()
            name = fields[2]
            # Whole disks only (a partition's writes are its disk's too).
            if re.fullmatch(r"(sd[a-z]+|vd[a-z]+|xvd[a-z]+|nvme\d+n\d+)", name):
                total += int(fields[9])
    return total * 512


def rss_anon_kib(pid):
    try:
        with open("/proc/%d/status" % pid) as status:
            for line in status:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def app_pid(launcher_pid):
    """The program the launcher runs: its child."""
    try:
        children = open("/proc/%d/task/%d/children" % (launcher_pid, launcher_pid)).read().split()
        return int(children[0]) if children else None
    except OSError:
        pass
    # A kernel without /proc/PID/task/TID/children: by each process's parent.
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = open("/proc/%s/stat" % entry).read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == launcher_pid:
                return int(entry)
    return None


def checkpoints(journal):
    """(number, blocks, records, seconds) of each complete checkpoint the
    journal (version 4) still holds."""
    data = open(journal, "rb").read()
    offset = struct.unpack_from("<I", data, 56)[0]
    found = []
    for start in range(offset, len(data) - 4095, 4096):
        kind, _, _, commit = data[start:start + 4]
        if kind != 6 or commit != 0xC5 or struct.unpack_from("<Q", data, start + 16)[0] == 0:
            continue
        unit = start + 32
        while unit < start + 4096:  # record by record, by their unit counts
            kind, _, count, commit = data[unit:unit + 4]
            if commit != 0xC5 or count == 0:
                break
            if kind == 10:
                site, serial, key, nanoseconds = struct.unpack_from("<IQQQ", data, unit + 4)
                found.append((serial, site, key, nanoseconds / 1e9))
            unit += 32 * count
    return sorted(found)


def events_made(truth_file):
    try:
        with open(truth_file, "rb") as truth:
            head = truth.read(16)
        return struct.unpack("<QQ", head)[1] if len(head) == 16 else 0
    except OSError:
        return 0


def run(args, app, work, name, events, kill_at=None, measure=False):
    """Runs the program to `events` events, or kills it with SIGKILL once
    its bookkeeping says it made `kill_at`."""
    msledger = os.path.join(args.build, "bin", "msledger")
    journal = os.path.join(work, name + ".journal")
    truth_file = os.path.join(work, name + ".truth")
    snapshots = os.path.join(work, name + "-snapshots")
    log = open(os.path.join(work, name + ".log"), "w")
    command = [msledger, "--check-cann-heap=yes", "--check-device-heap=no",
               "--journal=" + journal, "--snapshot-interval=%g" % args.snapshot_interval,
               "--snapshot-dir=" + snapshots,
               app, str(events), truth_file]
    written_before = disk_sectors_written()
    start = time.monotonic()
    environment = dict(os.environ, MSLEDGER_OPTIONS="journal_size_mb=%d" % args.journal_mb)
    launcher = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=environment)
    memory, next_report, next_sample = [], start + 5, start
    while launcher.poll() is None:
        time.sleep(0.005)
        now = time.monotonic()
        pid = app_pid(launcher.pid)
        if measure and pid and now >= next_sample:
            kib = rss_anon_kib(pid)
            if kib is not None:
                memory.append((now - start, kib))
            next_sample += 0.2
        if now >= next_report:
            launcher.send_signal(signal.SIGUSR1)  # forwarded: a report of what is live
            next_report += 5
        if kill_at is not None and pid and events_made(truth_file) >= kill_at:
            os.kill(pid, signal.SIGKILL)
            kill_at = None
    status = launcher.wait()
    seconds = time.monotonic() - start
    os.sync()  # what the run dirtied is written now, and counted
    log.close()
    return {"status": status, "seconds": seconds, "journal": journal, "truth": truth_file,
            "snapshots": snapshots, "memory": memory,
            "written": disk_sectors_written() - written_before,
            "log": open(os.path.join(work, name + ".log"), errors="replace").read()}


def check_journal(args, result, name):
    msledger = os.path.join(args.build, "bin", "msledger")
    report = subprocess.run([msledger, "report", "--exitcode=0", result["journal"]],
                            capture_output=True, text=True)
    if report.returncode != 0:
        fail("%s: msledger report failed (%d): %s" % (name, report.returncode, report.stderr))
    truth, pending, events = read_truth(result["truth"])
    ok, extra, missing = agrees(reported(report.stdout), truth, pending)
    if not ok:
        fail("%s: the journal's report is not the truth: %d extra %s, %d missing %s\n%s"
             % (name, len(extra), sorted(extra)[:5], len(missing), sorted(missing)[:5],
                report.stdout[:2000]))
    heading = report.stdout.split("\n", 1)[0]
    return len(truth), events, heading


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build", nargs="?", default="build")
    parser.add_argument("--events", type=int, default=10 ** 9)
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--snapshot-interval", type=float, default=1.0)
    parser.add_argument("--journal-mb", type=int, default=256)
    args = parser.parse_args()
    args.build = os.path.abspath(args.build)
    random.seed(args.seed)
    work = tempfile.mkdtemp(prefix="msledger-soak-")
    try:
        app, leak_line, cache_line = build(args.build, work)
        print("soak.c built and rewritten: the leak at soak.c:%d, the cache at soak.c:%d"
              % (leak_line, cache_line), flush=True)
        full = run(args, app, work, "full", args.events, measure=True)
        if full["status"] != 23:
            fail("the full run exited %d:\n%s" % (full["status"], full["log"][-2000:]))
        truth, pending, events = read_truth(full["truth"])
        own = reported(full["log"].split("detected memory leaks", 1)[-1])
        if own != truth:
            fail("the process's own report is not the truth: %d extra, %d missing"
                 % (len(own - truth), len(truth - own)))
        held, events, heading = check_journal(args, full, "the full run")
        growth = subprocess.run([os.path.join(args.build, "bin", "msledger"), "growth",
                                 full["snapshots"]], capture_output=True, text=True).stdout
        suspects = [line for line in growth.split("\n") if "bytes/s" in line]
        if not suspects or "soak.c:%d " % leak_line not in suspects[0] or \
                any("soak.c:%d " % cache_line in line for line in suspects):
            fail("msledger growth does not name the leak alone:\n" + growth)
        hours = full["seconds"] / 3600
        size = os.stat(full["journal"])
        print("full run: %d events in %.1f s (%.2f M events/s), %d held at exit, "
              "the journal and the process agree" % (events, full["seconds"],
                                                      events / full["seconds"] / 1e6, held))
        print("  %s" % heading)
        print("  msledger growth: %s" % suspects[0].strip())
        print("  journal: %.0f MiB declared, %.0f MiB on disk; disks written %.2f GiB "
              "(%.1f GiB an hour at this rate; %d bytes of events)"
              % (size.st_size / 2 ** 20, size.st_blocks * 512 / 2 ** 20,
                 full["written"] / 2 ** 30, full["written"] / 2 ** 30 / hours, events * 32))
        marks = checkpoints(full["journal"])
        if marks:
            last = marks[-1][0]
            mean = statistics.mean(m[3] for m in marks)
            print("  checkpoints: %d in all; the %d still held took %.2f ms on average "
                  "(%d records, %d blocks each): %.2f ns of the monitor's time per event"
                  % (last, len(marks), mean * 1e3, statistics.mean(m[2] for m in marks),
                     statistics.mean(m[1] for m in marks), mean * last / events * 1e9))
        memory = full["memory"]
        if memory:
            at = lambda fraction: memory[min(len(memory) - 1, int(len(memory) * fraction))]
            print("  RssAnon of the program (the ledger's heap and the program's; the simulated "
                  "device memory it leaks is reserved, never touched): %s; peak %d KiB"
                  % (", ".join("%d KiB at %.0f s" % (kib, t) for t, kib in
                               (at(0.1), at(0.5), at(0.99))),
                     max(kib for _, kib in memory)))
        for kill in range(1, args.kills + 1):
            # A random moment of the run, by its progress (the machine's
            # speed does not move it); one the run outran is drawn again.
            for attempt in range(5):
                moment = int(random.uniform(0.02, 0.95) * args.events)
                result = run(args, app, work, "kill%d" % kill, args.events, kill_at=moment)
                if result["status"] != 23:
                    break
            if result["status"] != 137:
                fail("kill %d: the launcher exited %d, not 137" % (kill, result["status"]))
            held, events, heading = check_journal(args, result, "kill %d" % kill)
            recovered = re.search(r"(checkpoint \d+ \(\d+ live record\(s\)\) and \d+ later "
                                  r"event\(s\)|\d+ event\(s\))", heading)
            print("kill %d at %.1f s, after %d events: the journal's report is the truth "
                  "(%d held; from %s)" % (kill, result["seconds"], events, held,
                                          recovered.group(1) if recovered else "?"), flush=True)
            for path in (result["journal"], result["truth"]):
                os.unlink(path)
            shutil.rmtree(result["snapshots"], ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
