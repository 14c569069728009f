#!/usr/bin/env python3
"""Refuses lit RUN lines that can pass although what they check failed.

Usage: lint_run_lines.py PATH...   (files, or folders searched for lit tests:
                                    *.test, *.c, *.cpp, outside Inputs/)

A RUN line's verdict is its exit status. These constructs throw it away, or
accept a crash in place of the failure a test expects:

  not CMD, ! CMD          any non-zero status passes, a segmentation fault or a
                          sanitizer's report included: use %expect-exit N CMD
                          (lit-tests/Inputs/expect_exit.py), which wants N;
                          `not` anywhere (timeout 5 not ..., env -C d not ...)
  true, :, exit 0         as commands: a line ending in them always passes
                          (`|| true`, `; true`)
  CMD || X                after a checker or a program under test (below),
                          X decides the line: it must fail it (exit N, N
                          not 0, or false; a { ...; } group ending so)
  CMD ; ...               the status of a checker (FileCheck, %expect-exit,
  CMD &                   diff, cmp, count) or of a program under test (a
                          lit substitution: %msledger, %t/app, ...) followed
                          by `;` is dropped (an if's or a loop's condition
                          too), unless the next command reads $? or the `;`
                          ends a { } group; one sent to the background must
                          be waited for by its pid, wait last or $? read. Join with &&, use
                          a new RUN line, or in a loop `|| exit 1`
  set +o pipefail, set +e a failing command no longer fails the line

Quoted text is not read (a Python one-liner's `is not None` is fine). Not
covered: a failure inside $(...) (bash ignores it): keep command
substitutions to what cannot fail the test, or write to a file first.
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
    """`command` with the contents of quotes blanked out (same length, so
    that positions in it are positions in `command`). A backslash escapes
    outside quotes and inside double quotes, not inside single ones."""
    out, quote, escaped = [], None, False
    for char in command:
        if escaped:
            out.append("x")
            escaped = False
        elif char == "\\" and quote != "'":
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


def fails_the_line(segment):
    """Whether `segment`, run after `||`, turns the failure into a failure:
    exit with a non-zero status, or false."""
    word, rest = command_word(segment)
    if word == "false":
        return True
    return word == "exit" and bool(rest) and rest[0].isdigit() and int(rest[0]) != 0


def watched(word):
    """Whether a command's status is a verdict: a checker, or a program under
    test (a lit substitution: %msledger, %msrewrite, %t/app, %acl_cc, ...)."""
    return os.path.basename(word) in CHECKERS or word.startswith("%")


def problems(command):
    """What in one RUN command can drop its verdict."""
    # Redirections (2>&1, &>) are not separators; lit's `%else %{ true %}`
    # is the no-op branch of a condition, not a dropped verdict.
    text = REDIRECTION.sub(lambda m: " " * len(m.group()), unquoted(command))
    text = re.sub(r"%else\s*%\{\s*true\s*%\}", lambda m: " " * len(m.group()), text)
    found = []
    if re.search(r"(?<![\w./-])not(?![\w./-])", text):
        found.append("`not` passes on any failure, a crash included: use %expect-exit N")
    if re.search(r"\bset\s+\+o\s+pipefail\b|\bset\s+\+e\b", text):
        found.append("`set +o pipefail` or `set +e` lets a failing command pass")
    position = 0
    pieces = []  # (segment, its start in `command`, the separator after it)
    for match in SEPARATOR.finditer(text):
        pieces.append((text[position:match.start()], position, match.group()))
        position = match.end()
    pieces.append((text[position:], position, ""))
    for index, (segment, _, separator) in enumerate(pieces):
        word, rest = command_word(segment)
        following = pieces[index + 1] if index + 1 < len(pieces) else ("", len(text), "")
        later = command[following[1]:]  # the original text after the separator
        if word is None:
            continue
        name = os.path.basename(word)
        if word == "!":
            found.append("`!` passes on any failure, a crash included: use %expect-exit N")
        elif word in ALWAYS_PASSES or (word == "exit" and rest[:1] == ["0"]):
            found.append("`%s` as a command makes the line pass whatever came before" %
                         " ".join([word] + rest[:1] if word == "exit" else [word]))
        if separator == "||" and watched(word):
            # What follows decides the line: it must fail it. A group
            # ({ ...; exit 1; }) must end in such an exit.
            if following[0].strip() or following[2] != "{":
                if not fails_the_line(following[0]):
                    found.append("`|| %s` replaces a failure of %s with its own status: "
                                 "use `|| exit 1`" % (" ".join(following[0].split()[:2]), name))
            else:
                group = []
                for inner in pieces[index + 2:]:
                    group.append(inner[0])
                    if inner[2] == "}":
                        break
                if not any(fails_the_line(piece) for piece in group):
                    found.append("the group after `||` does not fail the line (end it with "
                                 "`exit 1`)")
        if not watched(word):
            continue
        if separator == "&" and not re.search(r"\bwait\s+[$%\d]\S*(.*\$\?|[^;&|]*$)", later,
                                                re.S):
            found.append("%s runs in the background and its status is never read "
                         "(wait $pid; test $? -eq N)" % name)
        elif separator == ";":
            if not following[0].strip() and following[2] == "}":
                continue  # the end of a group: its status is the group's
            if re.match(r"\s*[^;&|]*(\$\?|PIPESTATUS)", later):
                continue  # the next command reads the status
            found.append("the status of %s is dropped by the `;` after it" % name)
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
