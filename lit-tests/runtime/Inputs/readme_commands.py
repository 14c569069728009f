#!/usr/bin/env python3
"""readme_commands.py WORKDIR ROOT README...: runs every msledger command the
READMEs (ROOT/README, named relative to the checkout ROOT) show, as written,
in WORKDIR; exit status 1 if one fails.

A command is a line of a fenced code block (continued by a trailing
backslash; a `# comment` dropped), or an inline code span (which may run over
two lines of the paragraph), that starts with `msledger` or
`build/bin/msledger`. It runs through bash in WORKDIR, with WORKDIR/bin first
on PATH (where the test puts the msledger under test, `app` and a stand-in
`mpirun`), so what the README names relative to the checkout -- ./app,
build/bin/msledger, ci/msledger.supp -- is what the test laid out there.

Placeholders become the inputs the test made, under WORKDIR/inputs:

  JOURNAL, FILE (an operand)      inputs/leak.journal
  A.json, B.json                  the first and the last of inputs/snapshots
  DIR, SNAPSHOT_DIR (operands)    inputs/snapshots
  REPORT.json...                  inputs/reports/*.json
  msledger-snapshots.PID          a msledger-snapshots.<pid> in WORKDIR
  --project-root=DIR              --project-root=.
  --exitcode=N                    --exitcode=23
  --OPTION=FILE, -o FILE, OUT.html, ...   a new file under outputs/

A synopsis's optional parts run both ways: once without any `[...]`, once
with those that are options (`[--project-root=DIR]`, `[--]`). Any other
upper-case word left is a placeholder this script does not know: a failure,
so that a README edit cannot slip a command past the test.

A command naming only a subcommand (`msledger merge`, in a sentence) runs as
`msledger merge --help`. Each must exit with the status its kind gives on
these inputs: 23 for a run of a leaking application, `report` and `merge`
(findings), 0 for `baseline`, `diff`, `growth`, `timeline` and --help, and
0 for a run, `report` or `merge` given `--baseline=` (the READMEs make their
baselines of the same application's findings: nothing is new); never 2, a
command line msledger refuses. One line per command run:
`ok STATUS FILE:LINE: COMMAND AS WRITTEN`.
"""
import glob
import os
import re
import subprocess
import sys

SUBCOMMANDS = {"report": 23, "merge": 23, "baseline": 0, "diff": 0, "growth": 0, "timeline": 0}
RUN_STATUS = 23  # every application the test lays out leaks
COMMAND = re.compile(r"^(?:build/bin/)?msledger(?:\s|$)")


def commands(path):
    """(line, text) of every msledger command in the markdown file `path`."""
    found = []
    lines = open(path, encoding="utf-8").read().split("\n")
    prose = []  # (line number, text) outside fenced blocks
    fence = None
    pending = None
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("```"):
            fence = None if fence else stripped
            prose.append((number, ""))
            continue
        if not fence:
            prose.append((number, line))
            continue
        if pending:
            pending = (pending[0], pending[1] + " " + stripped)
        elif COMMAND.match(stripped):
            pending = (number, stripped)
        if pending and pending[1].endswith("\\"):
            pending = (pending[0], pending[1][:-1].rstrip())
            continue
        if pending:
            text = re.sub(r"\s+#.*$", "", pending[1])
            found.append((pending[0], " ".join(text.split())))
            pending = None
    # Inline spans, within a paragraph (a blank line ends one).
    paragraph = []
    for number, line in prose + [(len(lines) + 1, "")]:
        if line.strip():
            paragraph.append((number, line))
            continue
        text = "\n".join(line for _, line in paragraph)
        for match in re.finditer(r"`([^`]+)`", text):
            span = " ".join(match.group(1).split())
            if COMMAND.match(span):
                first = paragraph[0][0] + text.count("\n", 0, match.start())
                found.append((first, span))
        paragraph = []
    return sorted(found)


def variants(command):
    """The command without its optional parts, and with those that are
    options, when it has any."""
    if "[" not in command:
        return [command]
    without = re.sub(r"\s*\[[^\]]*\]", "", command)
    with_options = re.sub(r"\[([^\]]*)\]", lambda m: m.group(1) if m.group(1).startswith("-") else "",
                          command)
    return [without] + ([" ".join(with_options.split())] if with_options != without else [])


class Inputs:
    def __init__(self, work):
        self.work = work
        self.outputs = 0
        snapshots = sorted(glob.glob(os.path.join(work, "inputs", "snapshots", "snapshot-*.json")))
        if len(snapshots) < 2:
            sys.exit("readme_commands: the test made fewer than two snapshots in inputs/snapshots")
        self.first, self.last = (os.path.relpath(p, work) for p in (snapshots[0], snapshots[-1]))

    def output(self, suffix):
        self.outputs += 1
        return "outputs/%d%s" % (self.outputs, suffix)

    def pid(self):
        dirs = sorted(d for d in glob.glob(os.path.join(self.work, "msledger-snapshots.*"))
                      if glob.glob(os.path.join(d, "snapshot-*.json")))
        if not dirs:
            sys.exit("readme_commands: no msledger-snapshots.PID with snapshots in " + self.work)
        return dirs[0].rsplit(".", 1)[1]

    def substitute(self, command):
        def option(match):
            name, value = match.group(1), match.group(2)
            if name == "--project-root":
                return name + "=."
            if name == "--exitcode":
                return name + "=23"
            return "%s=%s" % (name, self.output("." + name.lstrip("-")))

        command = re.sub(r"(--[a-z][\w-]*)=([A-Z][A-Z_]*)(?![\w.])", option, command)
        command = re.sub(r"(?<!\S)-o FILE(?![\w.])", lambda m: "-o " + self.output(".out"), command)
        if "msledger-snapshots.PID" in command:
            command = command.replace("msledger-snapshots.PID", "msledger-snapshots." + self.pid())
        operands = {
            "REPORT.json...": "inputs/reports/*.json",
            "OUT.html": None,
            "A.json": self.first,
            "B.json": self.last,
            "SNAPSHOT_DIR": "inputs/snapshots",
            "DIR": "inputs/snapshots",
            "JOURNAL": "inputs/leak.journal",
            "FILE": "inputs/leak.journal",
        }
        for word, value in operands.items():
            pattern = r"(?<![\w./=-])" + re.escape(word) + r"(?![\w.])"
            while re.search(pattern, command):
                command = re.sub(pattern, value or self.output(".html"), command, count=1)
        return command


def expected(command):
    words = command.split()
    if "--help" in words or "-h" in words:
        return 0
    if any(word.startswith("--baseline=") for word in words):
        return 0
    return SUBCOMMANDS.get(words[1] if len(words) > 1 else "", RUN_STATUS)


def main():
    work, root, readmes = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3:]
    inputs = Inputs(work)
    os.makedirs(os.path.join(work, "outputs"), exist_ok=True)
    env = dict(os.environ, PATH=os.path.join(work, "bin") + os.pathsep + os.environ["PATH"])
    failed = ran = 0
    for name in readmes:
        for line, written in commands(os.path.join(root, name)):
            words = written.split()
            if len(words) == 1 or (len(words) == 2 and words[1] in SUBCOMMANDS):
                written_run = [written + " --help"]
            else:
                written_run = variants(written)
            for command in written_run:
                actual = inputs.substitute(command)
                unknown = re.findall(r"[A-Z][\w.]*", actual)
                status, output = None, ""
                if unknown:
                    output = "unknown placeholder(s) %s\n" % ", ".join(unknown)
                else:
                    try:
                        run = subprocess.run(["bash", "-c", actual], cwd=work, env=env, timeout=120,
                                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                             stderr=subprocess.STDOUT)
                        status, output = run.returncode, run.stdout.decode("utf-8", "replace")
                    except subprocess.TimeoutExpired:
                        output = "timed out\n"
                ran += 1
                want = expected(command)
                if status == want:
                    print("ok %d %s:%d: %s" % (status, name, line, written))
                    continue
                failed += 1
                print("FAIL %s:%d: %s\n  ran: %s\n  exit status %s, expected %d\n%s" %
                      (name, line, written, actual, status, want,
                       "".join("  | " + l + "\n" for l in output.splitlines()[-15:])))
    print("%d command(s) run, %d failed" % (ran, failed))
    return 1 if failed or not ran else 0


if __name__ == "__main__":
    sys.exit(main())
