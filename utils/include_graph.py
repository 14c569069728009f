#!/usr/bin/env python3
"""The component include graph of a directory of C++ sources, and its cycles.

A component is a header with its source file: runtime/lib/ledger.h and
runtime/lib/ledger.cpp are the component `lib/ledger`; a fragment a header
includes (options.inc, error_kinds.def) is its own leaf component. A
component depends on another when any of its files includes the other's
header with #include "NAME" (a header of the same directories; system and
library headers are not components). A dependency cycle between components
is a strongly connected component of more than one node, or a component
whose files include its own header only through another's.

    include_graph.py DIR...           prints each component's dependencies
                                      and exits 1 if there is a cycle
                                      (naming its components), 0 if none
    include_graph.py --dot DIR...     the graph in Graphviz's dot language

Exit status 2 for a bad command line or a directory that does not exist.
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SOURCES = (".h", ".cpp", ".c", ".inc", ".def")


def component_of(path):
    """`lib/ledger` for runtime/lib/ledger.cpp: a directory's own name and the
    file's stem, so that launcher/report.cpp is not lib/report.h's."""
    directory = os.path.basename(os.path.dirname(os.path.abspath(path)))
    return directory + "/" + os.path.splitext(os.path.basename(path))[0]


def read_graph(directories):
    """{component: set of components it includes} over the directories."""
    files = []
    for directory in directories:
        for name in sorted(os.listdir(directory)):
            path = os.path.join(directory, name)
            if os.path.isfile(path) and name.endswith(SOURCES):
                files.append(path)
    # Headers by the name an #include "..." gives (basename: the build puts
    # each directory on the include path).
    headers = {}
    for f in files:
        if not f.endswith((".cpp", ".c")):
            name = os.path.basename(f)
            if name in headers and headers[name] != component_of(f):
                sys.exit(f"include_graph.py: two headers named {name}: "
                         f"{headers[name]} and {component_of(f)}")
            headers[name] = component_of(f)
    graph = {component_of(f): set() for f in files}
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
        source = component_of(path)
        for included in INCLUDE.findall(text):
            target = headers.get(os.path.basename(included))
            if target and target != source:
                graph[source].add(target)
    return graph


def cycles(graph):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for successor in sorted(graph.get(node, ())):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            members = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                members.append(member)
                if member == node:
                    break
            if len(members) > 1:
                found.append(sorted(members))

    sys.setrecursionlimit(10000)
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dot", action="store_true",
                        help="print the graph in Graphviz's dot language")
    parser.add_argument("directories", nargs="+", metavar="DIR")
    args = parser.parse_args()
    for directory in args.directories:
        if not os.path.isdir(directory):
            parser.error(f"{directory}: not a directory")
    graph = read_graph(args.directories)
    if args.dot:
        print("digraph components {")
        for node in sorted(graph):
            for target in sorted(graph[node]):
                print(f'  "{node}" -> "{target}";')
        print("}")
    else:
        for node in sorted(graph):
            print(f"{node}: {' '.join(sorted(graph[node])) or '-'}")
    found = cycles(graph)
    for members in found:
        print("cycle: " + " <-> ".join(members), file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
