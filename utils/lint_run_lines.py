#!/usr/bin/env python3
"""Refuses lit RUN lines that can pass although what they check failed.

Usage: lint_run_lines.py PATH...   (files, or folders searched for lit tests:
                                    *.test, *.c, *.cpp, outside Inputs/)

A RUN line's verdict is its exit status. These constructs throw it away, or
accept a crash in place of the failure a test expects:

  not CMD, ! CMD          any non-zero status passes, a segmentation fault or a
                          sanitizer's report included: use %expect-exit N CMD
                          (lit-tests/Inputs/expect_exit.py), which wants N
  true, :, exit 0         as commands: a line ending in them always passes
                          (`|| true`, `; true`)
  CHECKER ; ...           the status of a checker (FileCheck, %expect-exit,
  CHECKER &               diff, cmp, count) followed by `;` or `&` is dropped:
                          join with && or a new RUN line; in a loop,
                          `|| exit 1`

Quoted text is not read (a Python one-liner's `is not None` is fine).
Prints FILE:LINE: problem for each one found and a count; exit status 1 if
any was found, 2 on bad usage.
"""
import os
import re
import sys

CHECKERS = ("FileCheck", "%expect-exit", "diff", "cmp", "count")
ALWAYS_PASSES = ("true", ":")
# Separators between commands, longest first.
SEPARATOR = re.compile(r"\|\||&&|;;|[;&|(){}\n]")
REDIRECTION = re.compile(r"[0-9]*[<>]&[0-9-]*|&>>?")
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
# Shell words that begin a command without being one.
KEYWORDS = ("do", "then", "else", "elif", "if", "while", "until", "time")


def run_lines(path):
    """(line number, text) of each RUN command in `path`, continuations
    (a trailing backslash) joined."""
    commands, current, first = [], None, 0
    with open(path, errors="replace") as test:
        for number, line in enumerate(test, 1):
            match = re.search(r"\bRUN:(.*)$", line)
            if not match:
                if current is not None:
                    commands.append((first, current))
                    current = None
                continue
            text = match.group(1).rstrip()
            if current is None:
                current, first = "", number
            if text.endswith("\\"):
                current += text[:-1] + " "
                continue
            commands.append((first, current + text))
            current = None
    if current is not None:
        commands.append((first, current))
    return commands


def unquoted(command):
    """`command` with the contents of quotes blanked out."""
    out, quote, escaped = [], None, False
    for char in command:
        if escaped:
            out.append("x")
            escaped = False
        elif char == "\\":
            out.append("x")
            escaped = True
        elif quote:
            if char == quote:
                quote = None
                out.append(char)
            else:
                out.append("x")
        elif char in "'\"":
            quote = char
            out.append(char)
        else:
            out.append(char)
    return "".join(out)


def command_word(segment):
    """The word a shell segment runs: past variable assignments, `env` and
    its assignments, and keywords such as `do`."""
    words = segment.split()
    while words:
        word = words[0]
        if ASSIGNMENT.match(word) or word in KEYWORDS:
            words.pop(0)
        elif word == "env":
            words.pop(0)
            while words and (ASSIGNMENT.match(words[0]) or words[0].startswith("-")):
                if words[0] == "-u" and len(words) > 1:
                    words.pop(0)
                words.pop(0)
        else:
            return word, words[1:]
    return None, []


def problems(command):
    """What in one RUN command can drop its verdict."""
    # Redirections (2>&1, &>) are not separators; lit's `%else %{ true %}`
    # is the no-op branch of a condition, not a dropped verdict.
    text = REDIRECTION.sub(" ", unquoted(command))
    text = re.sub(r"%else\s*%\{\s*true\s*%\}", " ", text)
    found = []
    position = 0
    pieces = []
    for match in SEPARATOR.finditer(text):
        pieces.append((text[position:match.start()], match.group()))
        position = match.end()
    pieces.append((text[position:], ""))
    for segment, separator in pieces:
        word, rest = command_word(segment)
        if word is None:
            continue
        name = os.path.basename(word)
        if word in ("not", "!"):
            found.append("`%s` passes on any failure, a crash included: use %%expect-exit N" % word)
        elif word in ALWAYS_PASSES or (word == "exit" and rest[:1] == ["0"]):
            found.append("`%s` as a command makes the line pass whatever came before" %
                         " ".join([word] + rest[:1] if word == "exit" else [word]))
        elif name in CHECKERS and separator in (";", "&"):
            found.append("the status of %s is dropped by the `%s` after it" % (name, separator))
    return found


def test_files(path):
    if os.path.isfile(path):
        yield path
        return
    for directory, subdirectories, files in os.walk(path):
        subdirectories[:] = sorted(d for d in subdirectories if d != "Inputs" and d != "Output")
        for name in sorted(files):
            if name.endswith((".test", ".c", ".cpp")):
                yield os.path.join(directory, name)


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        sys.stderr.write(__doc__)
        return 2
    count = 0
    for path in sys.argv[1:]:
        if not os.path.exists(path):
            sys.stderr.write("lint_run_lines: no such file or folder: %s\n" % path)
            return 2
        for test in test_files(path):
            for line, command in run_lines(test):
                for problem in problems(command):
                    print("%s:%d: %s" % (test, line, problem))
                    count += 1
    print("%d problem(s) in RUN lines" % count)
    return 1 if count else 0


if __name__ == "__main__":
    sys.exit(main())
