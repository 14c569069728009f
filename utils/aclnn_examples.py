#!/usr/bin/env python3
"""Builds and runs the aclnn examples of CANN's operator repositories against
a (simulated) toolkit, plain and under msledger, and reports what happened.

  aclnn_examples.py [--toolkit DIR] [--msledger PATH] [--msrewrite PATH]
                    [--jobs N] [--filter REGEX] [--limit N] [--experimental]
                    [--rewrite] [--timeout S] [--json OUT] [--work DIR]
                    REPO_CHECKOUT...

REPO_CHECKOUT is a plain directory tree of hicann/ops-math or hicann/ops-nn
(for instance `git archive v9.1.0 | tar -x -C DIR`). Every
examples/**/test_aclnn_*.cpp under it is an example (experimental/ and
scripts/ -- the opgen templates -- are left out, as the repositories'
build.sh leaves them out; --experimental takes experimental/ in). For each:

 1. build: g++ -std=c++17 FILE -I$T/include -I$T/include/aclnn
    -I$T/include/aclnnop -L$T/lib64 -lopapi_math [-lopapi_nn] -lnnopbase
    -lascendcl -Wl,-rpath,$T/lib64 -- what the repositories' build.sh
    --run_example compiles (-lopapi_nn where the checkout's build.sh links it);
 2. run it plain, then under `msledger --check-cann-heap=yes` and under
    `msledger --check-device-heap=yes` (both --leak-check=yes, --exitcode=0 so
    that the status is the example's own, --json for the findings); "ran to
    the end" is exit status 0 with no signal and no timeout;
 3. leak-free: neither level reported a leaked allocation, a leaked resource
    or an error (from the JSON report; the text report's "====== ERROR:"
    lines are counted too, and a disagreement is listed as an anomaly);
 4. with --rewrite: a copy of the example, a compile_commands.json for it,
    `msrewrite -p . -i FILE`, a rebuild with `msrewrite --print-build-flags`;
    it must still build, print what the original printed, and msledger's
    findings must name lines of the example file;
 5. results: for the operators the simulation computes ("core" operators: the
    aclnn names in a table of utils/simdevice/README.md's aclnn section if it
    has one, else the operators the toolkit's libopapi.so defines for real --
    its stand-ins are weak symbols --, else a built-in list), the printed
    "result[i] is: V" lines are compared with a reference computed with numpy
    from the example's literal inputs (std::vector literals or (N, V)
    fills, the shapes, dtypes and scalar values its CreateAclTensor /
    aclCreateScalar / aclCreateIntArray calls name), for a handful of
    operators: add, sub, mul, div and their scalar and in-place forms, the
    element-wise functions (abs, exp, relu, neg, sqrt, log, sin, cos, ...),
    the comparisons (eq/ne/gt/ge/lt/le), reduce_sum, mean, softmax, matmul,
    mm, batch_mat_mul, addmm, permute, cast. Operator calls are replayed in
    source order (an in-place call sees what the previous wrote); the k-th
    printed block of "result[i]" lines is compared with the k-th call's
    output. Anything else is "not compared", with the reason; a result is
    only called matching when it was computed. Without numpy the column is
    "n/a" (Debian's python3-numpy serves /usr/bin/python3).

Output: a table per repository, totals per repository (examples, built, ran to
the end, leak-free, results compared / matching), the most common reasons for
failing to build and to run, and anomalies worth a look (a crash under
msledger only, a report missing, a report on an example that ran to the end).
--json OUT writes the same as JSON.

Runs that fail for reasons of the machine (msledger or a toolkit library
being rebuilt at that moment: a loader or linker error, no report from an
example that exited) are tried again; if the toolkit or msledger changed
during the run at all, the report ends with a warning naming what changed.

Exit status: 0 whatever the examples do (this is a report); 2 on bad usage.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

try:
    import numpy as np
except ImportError:  # the comparison column becomes "n/a"
    np = None

HERE = os.path.dirname(os.path.abspath(__file__))
SRCROOT = os.path.dirname(HERE)
NOT_SIMULATED = re.compile(r"mssim: (\w+) is not simulated")
# "aclnnAddGetWorkspaceSize failed. ERROR: 161002", "copy result from device
# to host failed. ERROR: 507000": what failed, and the code.
CALL_FAILED = re.compile(r"(\w[\w ]{0,80}?)\s+failed\b[^\d\n-]{0,40}(-?\d+)")
OUTPUT_CAP = 256 * 1024

# The operators the simulation computes, when neither the README nor the
# toolkit's library says (the kernels of utils/simdevice/aclnn/kernels.h).
BUILTIN_CORE = """
Add Adds InplaceAdd InplaceAdds Sub Subs InplaceSub InplaceSubs Mul Muls
InplaceMul InplaceMuls Div Divs InplaceDiv InplaceDivs DivMod DivMods Pow
Maximum Minimum Remainder Fmod Abs Neg Sign Floor Ceil Round Relu InplaceRelu
Exp InplaceExp Log Sqrt Rsqrt Sin Cos Tanh Sigmoid Erf Reciprocal Gelu Silu
Eq Ne Gt Ge Lt Le LogicalAnd LogicalOr LogicalXor LogicalNot Cast InplaceCopy
SWhere MaskedFill InplaceFillScalar InplaceZero ReduceSum Mean Amax Amin
MaxDim MinDim Argmax Argmin Softmax LogSoftmax LayerNorm RmsNorm GroupNorm Mm
Bmm Mv Matmul Addmm Permute Cat Split SplitWithSize Slice IndexSelect Gather
Scatter Embedding Arange Repeat ConstantPadNd
""".split()


# ---------------------------------------------------------------------------
# Running things


def run_process(cmd, cwd, env, timeout):
    """Runs cmd in a session of its own; kills the whole group on timeout."""
    started = time.monotonic()
    try:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
    except OSError as e:
        return {"rc": None, "signal": None, "timed_out": False, "stdout": "", "stderr": str(e), "seconds": 0.0}
    timed_out = False
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = proc.communicate()
    rc = proc.returncode
    sig = None
    if rc is not None and rc < 0:
        sig = signal.Signals(-rc).name if -rc in signal.Signals._value2member_map_ else "signal %d" % -rc
    return {
        "rc": rc,
        "signal": sig,
        "timed_out": timed_out,
        "stdout": out.decode("utf-8", "replace")[:OUTPUT_CAP],
        "stderr": err.decode("utf-8", "replace")[:OUTPUT_CAP],
        "seconds": round(time.monotonic() - started, 3),
    }


def transient(run):
    """A run that failed for reasons of this machine, not of the example: the
    launcher or a library being rebuilt at that moment (a file too short, no
    permission, not found)."""
    if run["rc"] is None and not run["timed_out"]:
        return True
    if run["rc"] == 127 and re.search(r"error while loading shared libraries|symbol lookup error", run["stderr"]):
        return True
    # The linker meeting a toolkit library half written.
    return run["rc"] != 0 and bool(re.search(r"file too short|file format not recognized|cannot find -l|"
                                             r"\.so: undefined reference to", run["stderr"]))


def run_retrying(cmd, cwd, env, timeout, tries=6):
    """run_process, again (up to a minute) while the failure is transient."""
    for attempt in range(tries):
        run = run_process(cmd, cwd, env, timeout)
        if not transient(run) or attempt == tries - 1:
            return run
        time.sleep(10)


def ran_to_end(run):
    return run is not None and run["rc"] == 0 and not run["timed_out"] and run["signal"] is None


def status_word(run, launcher=False):
    """'yes', 'exit N', 'SIGSEGV', 'timeout'. Under the launcher a status of
    128 + N is the example's death by signal N."""
    if run is None:
        return "-"
    if run["timed_out"]:
        return "timeout"
    if run["signal"]:
        return run["signal"]
    if run["rc"] == 0:
        return "yes"
    if run["rc"] is None:
        return "not run"
    if launcher and 128 < run["rc"] < 160 and run["rc"] - 128 in signal.Signals._value2member_map_:
        return signal.Signals(run["rc"] - 128).name
    return "exit %d" % run["rc"]


# ---------------------------------------------------------------------------
# Why a build or a run failed


def build_failure(stderr, timed_out):
    """(category, detail) of a failed build."""
    if timed_out:
        return "build timed out", ""
    m = re.search(r"fatal error: ([^:\s]+): No such file or directory", stderr)
    if m:
        header = m.group(1)
        if re.search(r"(^|/)aclnn_\w+\.h$", header):
            return "missing operator header (generated by the real build, or not in the 9.1.0 header set)", header
        if header.startswith(("aclnn/", "acl/", "opdev/", "aclnnop/")):
            return "missing toolkit header (not in the simulated toolkit)", header
        if "op_api/" in header or "op_host/" in header or "op_kernel/" in header:
            return "missing header of the repository's own sources (not on the example's include path)", header
        return "missing header", header
    m = re.search(r"undefined reference to `([^'(]+)", stderr)
    if m:
        return "undefined reference at link", m.group(1)
    m = re.search(r"error: (.*)", stderr)
    if m:
        detail = re.sub(r"'[^']*'", "'...'", m.group(1).strip())
        raw = m.group(1).strip()
        if "__fp16" in raw or "float16_t" in raw:
            return "needs an Arm compiler (__fp16)", raw
        if "was not declared" in raw or "is not a member" in raw or "does not name a type" in raw:
            return "undeclared name (not in the simulated headers)", raw
        if "no matching function" in raw or "cannot convert" in raw or "invalid conversion" in raw or \
                "too many arguments" in raw or "too few arguments" in raw:
            return "signature differs from the simulated header", raw
        return "compile error", detail
    return "build failed", stderr.strip().splitlines()[-1] if stderr.strip() else ""


def run_failure(run, launcher=False):
    """(category, detail) of a run that did not reach the end."""
    if run["timed_out"]:
        return "timeout", ""
    text = run["stdout"] + "\n" + run["stderr"]
    m = NOT_SIMULATED.search(run["stderr"])
    if m:
        name = m.group(1)
        if "no way to say" in run["stderr"]:
            return "stopped: not simulated (no way to fail)", name
        if name.startswith("aclnn") or name.endswith("GetWorkspaceSize"):
            return "operator not simulated", re.sub(r"GetWorkspaceSize$", "", name)
        return "API not simulated", name
    word = status_word(run, launcher)
    if word.startswith("SIG"):
        return "crash (%s)" % word, ""
    for line in text.splitlines():
        failed = CALL_FAILED.search(line)
        if failed:
            return "call failed: %s" % code_name(failed.group(2)), failed.group(1).strip()
    mssim = [l for l in run["stderr"].splitlines() if l.startswith("mssim:")]
    if mssim:
        return "simulation message", mssim[0][:120]
    return word, ""


ACLNN_CODES = {
    "161001": "ACLNN_ERR_PARAM_NULLPTR 161001",
    "161002": "ACLNN_ERR_PARAM_INVALID 161002",
    "361001": "ACLNN_ERR_RUNTIME_ERROR 361001",
    "561000": "ACLNN_ERR_INNER 561000",
    "561103": "ACLNN_ERR_INNER_NULLPTR 561103",
    "200001": "ACL_ERROR_API_NOT_SUPPORT 200001",
    "100000": "ACL_ERROR_INVALID_PARAM 100000",
    "100001": "ACL_ERROR_UNINITIALIZE 100001",
    "100024": "ACL_ERROR_OP_NOT_FOUND 100024",
    "107000": "ACL_ERROR_RT_PARAM_INVALID 107000",
    "107002": "ACL_ERROR_RT_CONTEXT_NULL 107002",
    "207001": "ACL_ERROR_RT_MEMORY_ALLOCATION 207001",
    "107001": "ACL_ERROR_RT_INVALID_DEVICEID 107001",
}


def code_name(code):
    return ACLNN_CODES.get(code, code)


# ---------------------------------------------------------------------------
# msledger's reports


def read_report(json_path, log_path):
    """The findings of one msledger run: from its JSON report, with the text
    report's ERROR lines counted beside them."""
    report = {"present": False, "final": False, "leaks": 0, "leaked_bytes": 0, "resources": 0, "errors": 0,
              "text_errors": 0, "findings": [], "summary": None}
    try:
        with open(log_path, errors="replace") as f:
            text = f.read()
        report["text_errors"] = sum(1 for l in text.splitlines() if l.startswith("====== ERROR:"))
        report["text_summaries"] = [l[len("====== SUMMARY: "):] for l in text.splitlines()
                                    if l.startswith("====== SUMMARY:")]
    except OSError:
        pass
    try:
        with open(json_path) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return report
    report["present"] = True
    report["final"] = bool(data.get("final"))
    report["leaks"] = len(data.get("leaks", []))
    report["leaked_bytes"] = sum(int(l.get("size") or 0) for l in data.get("leaks", []))
    report["resources"] = len(data.get("resources", []))
    report["errors"] = len(data.get("errors", []))
    report["summary"] = data.get("summary")
    for item in data.get("leaks", []) + data.get("resources", []) + data.get("errors", []):
        report["findings"].append({
            "kind": item.get("kind"),
            "family": item.get("family"),
            "callee": item.get("callee"),
            "file": item.get("file"),
            "line": item.get("line"),
            "size": item.get("size"),
        })
    return report


def report_clean(report):
    return report["present"] and report["final"] and not (report["leaks"] or report["resources"] or
                                                          report["errors"])


def report_word(report, run):
    """A short cell: 'clean', '3L/96B 7R 1E' or 'no report'."""
    if report is None:
        return "-"
    if not report["present"] or not report["final"]:
        word = "no report"
    elif report_clean(report):
        word = "clean"
    else:
        parts = []
        if report["leaks"]:
            parts.append("%dL/%dB" % (report["leaks"], report["leaked_bytes"]))
        if report["resources"]:
            parts.append("%dR" % report["resources"])
        if report["errors"]:
            parts.append("%dE" % report["errors"])
        word = " ".join(parts)
    return word


# ---------------------------------------------------------------------------
# Reading an example's inputs, for the reference results

DTYPES = {
    "ACL_FLOAT": "float32", "ACL_DOUBLE": "float64", "ACL_INT8": "int8", "ACL_INT16": "int16",
    "ACL_INT32": "int32", "ACL_INT64": "int64", "ACL_UINT8": "uint8", "ACL_UINT16": "uint16",
    "ACL_UINT32": "uint32", "ACL_UINT64": "uint64", "ACL_BOOL": "bool",
}
# The host element types whose bytes are the ACL dtype's.
HOST_TYPES = {
    "float": "ACL_FLOAT", "double": "ACL_DOUBLE", "int8_t": "ACL_INT8", "int16_t": "ACL_INT16",
    "int32_t": "ACL_INT32", "int": "ACL_INT32", "int64_t": "ACL_INT64", "uint8_t": "ACL_UINT8",
    "uint16_t": "ACL_UINT16", "uint32_t": "ACL_UINT32", "uint64_t": "ACL_UINT64", "bool": "ACL_BOOL",
    "char": "ACL_INT8", "long": "ACL_INT64",
}
NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?[fFlLuU]*"
RESULT_LINE = re.compile(r"^\s*(?:(\w+) )?result\[(\d+)\] is:? *(\S+)")


def strip_comments(text):
    """C++ without its comments (string and character literals kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c == "/" and i + 1 < n and text[i + 1] == "*":
            j = text.find("*/", i + 2)
            out.append(" ")
            i = n if j < 0 else j + 2
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def parse_number(token):
    token = token.strip()
    if token in ("true", "false"):
        return token == "true"
    if not re.fullmatch(NUMBER, token):
        return None
    token = re.sub(r"[fFlLuU]+$", "", token)
    if re.fullmatch(r"[-+]?\d+", token):
        return int(token)
    return float(token)


def split_args(text):
    parts, depth, cur = [], 0, ""
    for c in text:
        if c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        parts.append(cur.strip())
    return parts


class Source:
    """What the example defines, by name: literal vectors, literal values,
    tensors made by its CreateAclTensor helper, scalars, int arrays; and its
    operator calls in order. A name defined twice differently is ambiguous
    (None)."""

    def __init__(self, text):
        self.text = strip_comments(text)
        self.defs = collections.defaultdict(list)
        t = self.text
        for m in re.finditer(r"std::vector<\s*([\w:]+)\s*>\s+(\w+)\s*=?\s*\{([^{}]*)\}\s*;", t):
            values = [parse_number(v) for v in split_args(m.group(3))]
            if values and all(v is not None for v in values):
                self._define(m.group(2), ("vec", m.group(1), values))
            else:
                self._define(m.group(2), ("unknown",))
        for m in re.finditer(r"std::vector<\s*([\w:]+)\s*>\s+(\w+)\s*\(([^;]*)\)\s*;", t):
            args = split_args(m.group(3))
            count = parse_number(args[0]) if args else None
            fill = parse_number(args[1]) if len(args) == 2 else (0 if len(args) == 1 else None)
            if isinstance(count, int) and fill is not None and count <= 1 << 20:
                self._define(m.group(2), ("vec", m.group(1), [fill] * count))
            else:
                self._define(m.group(2), ("unknown",))
        for m in re.finditer(r"\b(?:const\s+|constexpr\s+|static\s+)*(float|double|bool|int|int8_t|int16_t|int32_t|"
                             r"int64_t|uint8_t|uint32_t|uint64_t|long|auto|aclDataType)\s+(\w+)\s*=\s*([^;,]+);", t):
            value = m.group(3).strip()
            dtype = re.fullmatch(r"(?:aclDataType::)?(ACL_\w+)", value)
            if dtype:
                self._define(m.group(2), ("dtype", dtype.group(1)))
            else:
                number = parse_number(value)
                self._define(m.group(2), ("lit", number) if number is not None else ("unknown",))
        for m in re.finditer(r"\bCreateAclTensor\w*\s*\(([^;]*)\)\s*;", t):
            args = split_args(m.group(1))
            if len(args) == 5 and re.fullmatch(r"[&*]?\s*\w+", args[4]) and re.fullmatch(r"\w+", args[0]) and \
                    re.fullmatch(r"\w+", args[1]):
                self._define(args[4].lstrip("&* "), ("tensor", args[0], args[1], args[3]))
        for m in re.finditer(r"[*]?\s*(\w+)\s*=\s*aclCreateScalar\s*\(\s*&\s*(\w+)\s*,\s*([\w:]+)\s*\)", t):
            self._define(m.group(1), ("scalar", m.group(2), m.group(3)))
        for m in re.finditer(r"[*]?\s*(\w+)\s*=\s*aclCreateIntArray\s*\(\s*(\w+)\.data\(\)\s*,[^;]*\)\s*;", t):
            self._define(m.group(1), ("intarray", m.group(2)))
        for m in re.finditer(r"\bCreateAclIntArray\s*\(\s*(\w+)\s*,\s*[&*]?\s*(\w+)\s*\)", t):
            self._define(m.group(2), ("intarray", m.group(1)))
        self.calls = []
        for m in re.finditer(r"\bacl(?:nn)?(\w+?)GetWorkspaceSize\s*\(([^;]*)\)\s*;", t):
            self.calls.append((m.group(1), split_args(m.group(2))))

    def _define(self, name, definition):
        if definition not in self.defs[name]:
            self.defs[name].append(definition)

    def lookup(self, name):
        found = self.defs.get(name, [])
        # A tensor helper's own body (CreateAclTensor(hostData, shape, ...)
        # inside another helper) is not a definition of its caller's names.
        return found[0] if len(found) == 1 else None

    def operators(self):
        names = []
        for name, _ in self.calls:
            if name not in names:
                names.append(name)
        return names


class NotComparable(Exception):
    pass


def np_dtype(acl):
    if acl not in DTYPES:
        raise NotComparable("dtype %s" % acl)
    return np.dtype(DTYPES[acl])


class Model:
    """The example's calls, computed on the host with numpy."""

    def __init__(self, source):
        self.src = source
        self.state = {}   # tensor name -> ndarray (its device memory)
        self.dtypes = {}  # tensor name -> ACL dtype

    def dtype_arg(self, arg):
        arg = arg.strip()
        m = re.fullmatch(r"(?:aclDataType::)?(ACL_\w+)", arg)
        if m:
            return m.group(1)
        d = self.src.lookup(arg)
        if d and d[0] == "dtype":
            return d[1]
        raise NotComparable("dtype argument %s" % arg)

    def vector(self, name):
        d = self.src.lookup(name)
        if not d or d[0] != "vec":
            raise NotComparable("%s is not a literal vector" % name)
        return d

    def tensor(self, arg):
        name = arg.strip().lstrip("&*").strip()
        if name in self.state:
            return self.state[name]
        d = self.src.lookup(name)
        if not d or d[0] != "tensor":
            raise NotComparable("tensor %s not made from literal data" % name)
        _, host, shape, dtype_text = d
        acl = self.dtype_arg(dtype_text)
        _, host_type, values = self.vector(host)
        _, _, dims = self.vector(shape)
        if HOST_TYPES.get(host_type.replace("std::", "")) != acl and not (
                acl == "ACL_INT32" and host_type in ("int", "int32_t")):
            raise NotComparable("%s holds %s for %s" % (host, host_type, acl))
        count = int(np.prod(dims))
        # The helper copies the shape's worth of bytes from the vector.
        if len(values) < count:
            raise NotComparable("%s has %d values for shape %s" % (host, len(values), dims))
        array = np.array(values[:count], dtype=np_dtype(acl)).reshape([int(x) for x in dims])
        self.state[name] = array
        self.dtypes[name] = acl
        return array

    def out_dtype(self, arg):
        self.tensor(arg)
        return self.dtypes[arg.strip().lstrip("&*").strip()]

    def scalar(self, arg):
        name = arg.strip().lstrip("&*").strip()
        d = self.src.lookup(name)
        if not d or d[0] != "scalar":
            raise NotComparable("scalar %s" % name)
        value = self.src.lookup(d[1])
        if not value or value[0] != "lit":
            raise NotComparable("scalar value %s" % d[1])
        # The value as the scalar's dtype holds it (1.2f is 1.2000000476...).
        return np_dtype(self.dtype_arg(d[2])).type(value[1]).item()

    def literal(self, arg):
        arg = arg.strip()
        number = parse_number(arg)
        if number is not None:
            return number
        d = self.src.lookup(arg)
        if d and d[0] == "lit":
            return d[1]
        raise NotComparable("value %s" % arg)

    def intarray(self, arg):
        name = arg.strip().lstrip("&*").strip()
        d = self.src.lookup(name)
        if not d or d[0] != "intarray":
            raise NotComparable("int array %s" % name)
        return [int(v) for v in self.vector(d[1])[2]]

    def write(self, arg, value):
        name = arg.strip().lstrip("&*").strip()
        acl = self.out_dtype(arg)
        target = self.state[name]
        value = np.asarray(value)
        if value.size != target.size:
            raise NotComparable("%s holds %d elements, the result has %d" % (name, target.size, value.size))
        if np.dtype(DTYPES[acl]).kind in "iub" and value.dtype.kind == "f":
            value = np.trunc(value)
        self.state[name] = value.astype(np_dtype(acl)).reshape(target.shape)
        return self.state[name]

    def call(self, op, args):
        """The array the call writes, after writing it."""
        f = lambda a: self.tensor(a).astype(np.float64) if self.tensor(a).dtype.kind == "f" else self.tensor(a)
        binary = {"Add": lambda a, b, s: a + s * b, "Sub": lambda a, b, s: a - s * b,
                  "Mul": lambda a, b, s: a * b, "Div": lambda a, b, s: np.true_divide(a, b)}
        inplace = op.startswith("Inplace")
        base = op[len("Inplace"):] if inplace else op
        if base in binary or (base.endswith("s") and base[:-1] in binary):
            scalar_other = base not in binary
            fn = binary[base if not scalar_other else base[:-1]]
            has_alpha = (base.rstrip("s") in ("Add", "Sub"))
            need = 2 + has_alpha + (not inplace)
            if len(args) != need + 2:
                raise NotComparable("%d arguments" % len(args))
            self_ = f(args[0])
            other = self.scalar(args[1]) if scalar_other else f(args[1])
            alpha = self.scalar(args[2]) if has_alpha else 1.0
            out = args[0] if inplace else args[need - 1]
            return self.write(out, fn(self_, other, alpha))
        if base in UNARY:
            if len(args) != (1 if inplace else 2) + 2:
                raise NotComparable("%d arguments" % len(args))
            x = f(args[0])
            if base not in ("Abs", "Relu", "Neg", "Sign", "Floor", "Ceil", "Round") and x.dtype.kind != "f":
                x = x.astype(np.float64)  # torch: integral input gives float32
            return self.write(args[0] if inplace else args[1], UNARY[base]()(x))
        m = re.fullmatch(r"(Eq|Ne|Gt|Ge|Lt|Le)(Scalar|Tensor)", base)
        if m:
            if len(args) != (2 if inplace else 3) + 2:
                raise NotComparable("%d arguments" % len(args))
            # Compared in the promoted dtype, as torch compares (a float32
            # tensor with a Scalar: in float32).
            x = self.tensor(args[0])
            other = self.scalar(args[1]) if m.group(2) == "Scalar" else self.tensor(args[1])
            if m.group(2) == "Scalar" and x.dtype.kind == "f":
                other = x.dtype.type(other)
            compare = {"Eq": np.equal, "Ne": np.not_equal, "Gt": np.greater, "Ge": np.greater_equal,
                       "Lt": np.less, "Le": np.less_equal}[m.group(1)]
            return self.write(args[0] if inplace else args[2], compare(x, other))
        if base == "Addmm":
            if len(args) != (6 if inplace else 7) + 2:
                raise NotComparable("%d arguments" % len(args))
            product = np.matmul(f(args[1]).astype(np.float64), f(args[2]).astype(np.float64))
            value = self.scalar(args[3]) * f(args[0]) + self.scalar(args[4]) * product
            return self.write(args[0] if inplace else args[5], value)
        if op == "Permute":
            if len(args) != 5:
                raise NotComparable("%d arguments" % len(args))
            return self.write(args[2], np.transpose(self.tensor(args[0]), self.intarray(args[1])))
        if op in ("ReduceSum", "Mean"):
            if len(args) != 7:
                raise NotComparable("%d arguments" % len(args))
            x = f(args[0])
            dims = self.intarray(args[1])
            keep = bool(self.literal(args[2]))
            axes = tuple(d % x.ndim for d in dims) if dims else None
            fn = np.sum if op == "ReduceSum" else np.mean
            return self.write(args[4], fn(x.astype(np.float64), axis=axes, keepdims=keep))
        if op == "Softmax":
            if len(args) != 5:
                raise NotComparable("%d arguments" % len(args))
            x = f(args[0]).astype(np.float64)
            dim = int(self.literal(args[1])) % x.ndim
            e = np.exp(x - x.max(axis=dim, keepdims=True))
            return self.write(args[2], e / e.sum(axis=dim, keepdims=True))
        if op in ("Matmul", "Mm", "BatchMatMul", "Bmm"):
            if len(args) != 6:
                raise NotComparable("%d arguments" % len(args))
            return self.write(args[2], np.matmul(f(args[0]).astype(np.float64), f(args[1]).astype(np.float64)))
        if op == "Cast":
            if len(args) != 5:
                raise NotComparable("%d arguments" % len(args))
            x = self.tensor(args[0])
            target = self.dtype_arg(args[1])
            cast = x.astype(np.float64) if x.dtype.kind == "f" and np_dtype(target).kind in "iu" else x
            if np_dtype(target).kind in "iu" and cast.dtype.kind == "f":
                cast = np.trunc(cast)
            return self.write(args[2], cast.astype(np_dtype(target)))
        raise NotComparable("operator %s is not modelled" % op)


def _erf():
    import math
    return np.vectorize(math.erf, otypes=[np.float64])


# Element-wise functions, as torch computes them (made when numpy is there).
UNARY = {
    "Abs": lambda: np.abs, "Exp": lambda: np.exp, "Relu": lambda: (lambda x: np.maximum(x, 0)),
    "Neg": lambda: np.negative, "Sign": lambda: np.sign, "Floor": lambda: np.floor, "Ceil": lambda: np.ceil,
    "Round": lambda: np.round, "Sqrt": lambda: np.sqrt, "Rsqrt": lambda: (lambda x: 1 / np.sqrt(x)),
    "Log": lambda: np.log, "Sin": lambda: np.sin, "Cos": lambda: np.cos, "Tanh": lambda: np.tanh,
    "Sigmoid": lambda: (lambda x: 1 / (1 + np.exp(-x))), "Reciprocal": lambda: (lambda x: 1 / x), "Erf": _erf,
}
COMPARISONS = {a + b for a in ("Eq", "Ne", "Gt", "Ge", "Lt", "Le") for b in ("Scalar", "Tensor")}
MODELLED = {"Add", "Adds", "Sub", "Subs", "Mul", "Muls", "Div", "Divs", "ReduceSum", "Mean", "Softmax", "Matmul",
            "Mm", "BatchMatMul", "Bmm", "Cast", "Addmm", "Permute"} | set(UNARY) | COMPARISONS
MODELLED |= {"Inplace" + op for op in ("Add", "Adds", "Sub", "Subs", "Mul", "Muls", "Div", "Divs", "Addmm")}
MODELLED |= {"Inplace" + op for op in set(UNARY) | COMPARISONS if op != "Abs"}


def printed_blocks(stdout):
    """The printed results: runs of `[prefix ]result[i] is: V` lines whose
    index counts up from 0, each a list of floats (None where V is not a
    number)."""
    blocks, current, key = [], None, None
    for line in stdout.splitlines():
        m = RESULT_LINE.match(line)
        if not m:
            continue
        index = int(m.group(2))
        try:
            value = float(m.group(3).rstrip(","))
        except ValueError:
            value = None
        if current is not None and index == len(current) and m.group(1) == key:
            current.append(value)
        else:
            current, key = [value], m.group(1)
            blocks.append(current)
            if index != 0:
                current.insert(0, None)  # does not start at 0: not comparable
    return blocks


def compare_results(source_text, stdout, core):
    """{'status': 'match'|'mismatch'|'not compared'|'n/a', 'detail': ...}"""
    src = Source(source_text)
    ops = src.operators()
    if not ops:
        return {"status": "not compared", "detail": "no aclnn operator call found"}
    if not any(op in core for op in ops):
        return {"status": "not compared", "detail": "not a core operator: " + ",".join(ops)}
    unmodelled = [op for op in ops if op not in MODELLED]
    if unmodelled:
        return {"status": "not compared", "detail": "no reference for " + ",".join(unmodelled)}
    if np is None:
        return {"status": "n/a", "detail": "numpy is not importable"}
    blocks = printed_blocks(stdout)
    if not blocks:
        return {"status": "not compared", "detail": "no 'result[i] is:' lines printed"}
    if len(blocks) > len(src.calls):
        return {"status": "not compared",
                "detail": "%d result blocks for %d operator calls" % (len(blocks), len(src.calls))}
    model = Model(src)
    compared = []
    try:
        with np.errstate(all="ignore"):
            for (op, args), block in zip(src.calls, blocks):
                expected = model.call(op, args).astype(np.float64).ravel()
                if None in block:
                    raise NotComparable("a printed value is not a number")
                if len(block) != expected.size:
                    raise NotComparable("aclnn%s printed %d values, its output has %d" % (op, len(block),
                                                                                       expected.size))
                got = np.array(block, dtype=np.float64)
                ok = np.isclose(got, expected, rtol=1e-4, atol=1e-5, equal_nan=True)
                if not ok.all():
                    i = int(np.argmin(ok))
                    return {"status": "mismatch", "detail": "aclnn%s result[%d] is %r, reference %r" %
                            (op, i, float(got[i]), float(expected[i])), "compared": compared + [op]}
                compared.append(op)
    except NotComparable as e:
        return {"status": "not compared", "detail": str(e)}
    return {"status": "match", "detail": "%d value(s) of %s" % (sum(len(b) for b in blocks[:len(compared)]),
                                                              ",".join("aclnn" + c for c in compared)),
            "compared": compared}


# ---------------------------------------------------------------------------
# Which operators the simulation computes


def core_operators(toolkit):
    """(names, where from)."""
    readme = os.path.join(SRCROOT, "utils", "simdevice", "README.md")
    names, section = set(), False
    try:
        with open(readme) as f:
            for line in f:
                if line.startswith("#"):
                    section = bool(re.search(r"aclnn", line, re.I))
                elif section and line.lstrip().startswith("|"):
                    names.update(re.findall(r"\baclnn([A-Z]\w*)", line))
    except OSError:
        pass
    names = {re.sub(r"GetWorkspaceSize$", "", n) for n in names}
    if names:
        return names, "the aclnn table of utils/simdevice/README.md"
    library = os.path.join(toolkit, "lib64", "libopapi.so")
    nm = shutil.which("nm")
    if nm and os.path.exists(library):
        out = subprocess.run([nm, "-D", "--defined-only", library], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, universal_newlines=True).stdout
        strong = {m.group(1) for m in re.finditer(r"^\S+ T aclnn(\w+)GetWorkspaceSize$", out, re.M)}
        if strong:
            return strong, "the operators %s defines (its stand-ins are weak)" % library
    return set(BUILTIN_CORE), "a built-in list (neither the README nor libopapi.so names them)"


def fingerprint(toolkit, msledger):
    """What the run depends on that a concurrent rebuild may change: the
    toolkit's libraries and operator headers, msledger and its libraries."""
    paths = []
    for folder in (os.path.join(toolkit, "lib64"), os.path.join(toolkit, "include", "aclnnop"),
                   os.path.join(os.path.dirname(os.path.dirname(msledger)), "lib")):
        try:
            paths += [os.path.join(folder, n) for n in sorted(os.listdir(folder))]
        except OSError:
            pass
    state = {}
    for path in paths + [msledger]:
        try:
            st = os.stat(path)
            state[path] = (st.st_mtime_ns, st.st_size)
        except OSError:
            state[path] = None
    return state


# ---------------------------------------------------------------------------
# One example


class Runner:
    def __init__(self, args, toolkit, core, rewrite_flags):
        self.args = args
        self.toolkit = toolkit
        self.core = core
        self.rewrite_flags = rewrite_flags
        self.env = dict(os.environ)
        for variable in ("MSLEDGER_OPTIONS", "LD_PRELOAD"):
            self.env.pop(variable, None)
        self.env["ASCEND_HOME_PATH"] = toolkit
        self.env["ASCEND_TOOLKIT_HOME"] = toolkit
        self.env["LD_LIBRARY_PATH"] = os.pathsep.join(
            p for p in [os.path.join(toolkit, "lib64"), self.env.get("LD_LIBRARY_PATH", "")] if p)
        self.env["MSSIM_RUN_DIR"] = os.path.join(args.work, "mssim-run")
        self.env["LC_ALL"] = "C"

    def include_flags(self):
        t = self.toolkit
        return ["-I" + os.path.join(t, "include"), "-I" + os.path.join(t, "include", "aclnn"),
                "-I" + os.path.join(t, "include", "aclnnop")]

    def link_flags(self, libraries):
        lib64 = os.path.join(self.toolkit, "lib64")
        return ["-L" + lib64] + ["-l" + l for l in libraries] + ["-lnnopbase", "-lascendcl",
                                                                   "-Wl,-rpath," + lib64]

    def msledger_run(self, exe, level, cwd, tag, env=None):
        json_path = os.path.join(cwd, "%s.json" % tag)
        log_path = os.path.join(cwd, "%s.log" % tag)
        for p in (json_path, log_path):
            if os.path.exists(p):
                os.unlink(p)
        cmd = [self.args.msledger, "--check-%s-heap=yes" % level, "--leak-check=yes", "--exitcode=0",
               "--json=" + json_path, "--log-file=" + log_path, exe]
        for attempt in range(2):
            run = run_retrying(cmd, cwd, env or self.env, self.args.timeout)
            report = read_report(json_path, log_path)
            died = run["timed_out"] or run["signal"] or status_word(run, True).startswith("SIG")
            if (report["present"] and report["final"]) or died or attempt == 1:
                break
            # An example that exited and left no report: once more, in case
            # msledger was being rebuilt at that moment; a second miss stands.
            time.sleep(5)
            for p in (json_path, log_path):
                if os.path.exists(p):
                    os.unlink(p)
        report["attempts"] = attempt + 1
        return run, report

    def example(self, repo, root, rel, libraries):
        args = self.args
        src = os.path.join(root, rel)
        work = os.path.join(args.work, repo, re.sub(r"[^\w.-]", "_", rel))
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        with open(src, errors="replace") as f:
            text = f.read()
        operators = Source(text).operators()
        result = {"repo": repo, "example": rel, "operators": operators,
                  "core": bool(operators) and all(op in self.core for op in operators), "built": False,
                  "build": None, "plain": None, "cann": None, "device": None, "leak_free": None,
                  "result": None, "rewrite": None}
        exe = os.path.join(work, "example")
        compile_cmd = ["g++", "-std=c++17", src] + self.include_flags() + self.link_flags(libraries) + ["-o", exe]
        build = run_retrying(compile_cmd, work, self.env, args.build_timeout)
        result["build"] = {"command": " ".join(shlex.quote(c) for c in compile_cmd), "rc": build["rc"],
                           "seconds": build["seconds"]}
        if build["rc"] != 0 or build["timed_out"]:
            category, detail = build_failure(build["stderr"], build["timed_out"])
            result["build"].update(reason=category, detail=detail, stderr=build["stderr"][-2000:])
            return result
        result["built"] = True
        plain = run_retrying([exe], work, self.env, args.timeout)
        result["plain"] = self.run_record(plain)
        cann_run, cann_report = self.msledger_run(exe, "cann", work, "cann")
        device_run, device_report = self.msledger_run(exe, "device", work, "device")
        result["cann"] = dict(self.run_record(cann_run, launcher=True), report=cann_report)
        result["device"] = dict(self.run_record(device_run, launcher=True), report=device_report)
        both = cann_report["present"] and cann_report["final"] and device_report["present"] and \
            device_report["final"]
        result["leak_free"] = (report_clean(cann_report) and report_clean(device_report)) if both else None
        if ran_to_end(plain):
            result["result"] = compare_results(text, plain["stdout"], self.core)
        else:
            result["result"] = {"status": "-", "detail": "did not run to the end"}
        if args.rewrite:
            result["rewrite"] = self.rewrite(src, work, libraries, plain)
        if not args.keep:
            for name in ("example",):
                try:
                    os.unlink(os.path.join(work, name))
                except OSError:
                    pass
        return result

    def run_record(self, run, launcher=False):
        record = {"status": status_word(run, launcher), "rc": run["rc"], "signal": run["signal"],
                  "timed_out": run["timed_out"], "seconds": run["seconds"],
                  "ran_to_end": ran_to_end(run)}
        if not record["ran_to_end"]:
            category, detail = run_failure(run, launcher)
            record["reason"] = category
            record["detail"] = detail
            tail = (run["stdout"].strip().splitlines() or [""])[-1:] + run["stderr"].strip().splitlines()[-3:]
            record["output_tail"] = [l[:200] for l in tail if l]
        record["stdout_digest"] = result_lines(run["stdout"])
        return record

    def rewrite(self, src, work, libraries, plain):
        """Rewrite a copy, rebuild it, run it; do msledger's findings name
        the example's lines?"""
        args = self.args
        rdir = os.path.join(work, "rewritten")
        os.makedirs(rdir)
        name = os.path.basename(src)
        copy = os.path.join(rdir, name)
        shutil.copyfile(src, copy)
        # The copy's own includes ("../op_api/x.h") still resolve from the
        # example's folder.
        origin = ["-iquote", os.path.dirname(src)]
        compile_args = ["g++", "-std=c++17"] + origin + self.include_flags() + ["-c", name, "-o", name + ".o"]
        with open(os.path.join(rdir, "compile_commands.json"), "w") as f:
            json.dump([{"directory": rdir, "arguments": compile_args, "file": name}], f, indent=1)
        out = {"status": None}
        rw = run_retrying([args.msrewrite, "-p", ".", "-i", name], rdir, self.env, args.build_timeout)
        if rw["rc"] != 0 or rw["timed_out"] or "failed to compile, " in rw["stderr"] and \
                not re.search(r" 0 file\(s\) failed to compile", rw["stderr"]):
            lines = rw["stderr"].strip().splitlines() or [""]
            errors = [l for l in lines if "error:" in l]
            out.update(status="rewrite failed", detail=(errors or lines[-1:])[0][:200])
            return out
        exe = os.path.join(rdir, "example")
        cmd = ["g++", "-std=c++17", name] + origin + self.include_flags() + self.link_flags(libraries) + \
            self.rewrite_flags + ["-o", exe]
        build = run_retrying(cmd, rdir, self.env, args.build_timeout)
        if build["rc"] != 0 or build["timed_out"]:
            category, detail = build_failure(build["stderr"], build["timed_out"])
            out.update(status="build failed", detail="%s: %s" % (category, detail))
            return out
        env = dict(self.env, MSLEDGER_OPTIONS="leak_check=no:exitcode=0")
        again = run_retrying([exe], rdir, env, args.timeout)
        if status_word(again) != status_word(plain) or result_lines(again["stdout"]) != \
                result_lines(plain["stdout"]):
            out.update(status="runs differently",
                       detail="plain: %s, rewritten: %s" % (status_word(plain), status_word(again)))
            return out
        named, total = 0, 0
        levels = {}
        for level in ("cann", "device"):
            run, report = self.msledger_run(exe, level, rdir, "rewritten-" + level)
            levels[level] = report_word(report, run)
            for finding in report["findings"]:
                total += 1
                if finding["file"] and os.path.basename(finding["file"]) == name and (finding["line"] or 0) > 0:
                    named += 1
        out.update(levels=levels, findings=total, named=named)
        if total == 0:
            out["status"] = "ok, clean"
        elif named == total:
            out["status"] = "ok %d/%d" % (named, total)
        else:
            out["status"] = "lines %d/%d" % (named, total)
        return out


def result_lines(stdout):
    """The lines an example prints as its results (what a rewrite must not
    change)."""
    return [l for l in stdout.splitlines() if RESULT_LINE.match(l)]


# ---------------------------------------------------------------------------
# Finding the examples


def find_examples(root, experimental):
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        parts = [] if rel_dir == "." else rel_dir.split(os.sep)
        dirnames[:] = sorted(d for d in dirnames if d not in (".git", "build", "build_out", "output") and
                             d != "scripts" and (experimental or d != "experimental"))
        if "examples" not in parts:
            continue
        for name in filenames:
            if re.fullmatch(r"test_aclnn_\w*\.cpp", name):
                found.append(os.path.join(rel_dir, name) if parts else name)
    return sorted(found)


def repo_libraries(root, name):
    """The operator libraries the checkout's build.sh links its examples
    with; by the repository's name if it has none."""
    libraries = []
    try:
        with open(os.path.join(root, "build.sh"), errors="replace") as f:
            text = f.read()
        if re.search(r"-lopapi_math\b", text):
            libraries.append("opapi_math")
        if re.search(r"-lopapi_nn\b", text):
            libraries.append("opapi_nn")
    except OSError:
        pass
    if not libraries:
        libraries = ["opapi_math"] + (["opapi_nn"] if re.search(r"nn", name) else [])
    return libraries


def repo_name(root):
    name = os.path.basename(os.path.normpath(root))
    return name or root


# ---------------------------------------------------------------------------
# The report


def short_example(rel):
    text = re.sub(r"\.cpp$", "", rel)
    return text.replace("/examples/", "/")


def totals(results):
    t = collections.OrderedDict()
    t["examples"] = len(results)
    t["built"] = sum(1 for r in results if r["built"])
    t["ran_to_end"] = sum(1 for r in results if r["plain"] and r["plain"]["ran_to_end"])
    t["ran_to_end_under_msledger"] = sum(1 for r in results if r["cann"] and r["cann"]["ran_to_end"] and
                                         r["device"]["ran_to_end"])
    t["leak_free"] = sum(1 for r in results if r["leak_free"])
    t["leak_free_of_ran_to_end"] = sum(1 for r in results if r["leak_free"] and r["plain"]["ran_to_end"])
    statuses = collections.Counter(r["result"]["status"] for r in results if r["result"])
    t["results_compared"] = statuses["match"] + statuses["mismatch"]
    t["results_matching"] = statuses["match"]
    t["results_na"] = statuses["n/a"]
    if any(r["rewrite"] for r in results):
        rw = [r["rewrite"]["status"] for r in results if r["rewrite"]]
        t["rewritten"] = len(rw)
        t["rewrite_ok"] = sum(1 for s in rw if s.startswith("ok"))
    core = [r for r in results if r.get("core")]
    t["core_examples"] = len(core)
    t["core_built"] = sum(1 for r in core if r["built"])
    t["core_ran_to_end"] = sum(1 for r in core if r["plain"] and r["plain"]["ran_to_end"])
    build = collections.Counter(r["build"]["reason"] for r in results if not r["built"])
    run = collections.Counter(r["plain"]["reason"] for r in results if r["plain"] and not r["plain"]["ran_to_end"])
    t["build_failures"] = build.most_common()
    t["run_failures"] = run.most_common()
    t["build_failure_details"] = collections.Counter(
        "%s: %s" % (r["build"]["reason"], r["build"]["detail"]) for r in results if not r["built"]).most_common(10)
    t["run_failure_details"] = collections.Counter(
        "%s: %s" % (r["plain"]["reason"], r["plain"]["detail"]) for r in results
        if r["plain"] and not r["plain"]["ran_to_end"]).most_common(10)
    return t


def anomalies(results):
    """What looks wrong in the simulation or in msledger, rather than in the
    examples."""
    found = []
    for r in results:
        if not r["built"]:
            continue
        plain = r["plain"]
        for level in ("cann", "device"):
            run, report = r[level], r[level]["report"]
            if plain["ran_to_end"] and not run["ran_to_end"]:
                found.append((r, "ran to the end plain but not under msledger (%s level): %s" % (level,
                                                                                             run["status"])))
            elif plain["status"] != run["status"] and not plain["timed_out"] and not run["timed_out"]:
                found.append((r, "exit differs under msledger (%s level): plain %s, msledger %s" %
                              (level, plain["status"], run["status"])))
            died = run["timed_out"] or run["status"].startswith("SIG")
            if (not report["present"] or not report["final"]) and not died:
                found.append((r, "no final msledger report although the example exited (%s level): %s" %
                              (level, run["status"])))
            elif report["present"] and report["final"] and bool(report["text_errors"]) != bool(report["leaks"] or report["resources"] or report["errors"]):
                found.append((r, "text report and JSON disagree (%s level): %d ERROR line(s), JSON %dL %dR %dE" % (
                    level, report["text_errors"], report["leaks"], report["resources"], report["errors"])))
        if plain["ran_to_end"] and r["leak_free"] is False:
            found.append((r, "ran to the end and msledger reports: CANN %s, device %s" % (
                report_word(r["cann"]["report"], r["cann"]), report_word(r["device"]["report"], r["device"]))))
        if plain["signal"] and not plain["timed_out"]:
            found.append((r, "crashed plain: %s" % plain["status"]))
        if r["result"] and r["result"]["status"] == "mismatch":
            found.append((r, "result differs from the reference: %s" % r["result"]["detail"]))
        if r["rewrite"] and not r["rewrite"]["status"].startswith("ok"):
            found.append((r, "rewrite: %s %s" % (r["rewrite"]["status"], r["rewrite"].get("detail", ""))))
    return found


def format_table(rows, headers):
    widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows)]
    lines = ["  ".join(str(h).ljust(w) for h, w in zip(headers, widths)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    for row in rows:
        lines.append("  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip())
    return "\n".join(lines)


def result_word(result):
    if not result:
        return "-"
    return {"match": "yes", "mismatch": "NO", "not compared": "not compared", "n/a": "n/a", "-": "-"}.get(
        result["status"], result["status"])


def text_report(repos, meta, rewrite):
    out = []
    out.append("aclnn examples against %s" % meta["toolkit"])
    out.append("msledger %s; core operators: %d, from %s" % (meta["msledger"], len(meta["core_operators"]),
                                                             meta["core_source"]))
    if np is None:
        out.append("results: n/a -- numpy is not importable by %s (Debian: apt-get install python3-numpy, "
                   "then run with the python3 that has it)" % sys.executable)
    out.append("cells: ran = plain run to the end (exit 0) or its status; CANN / device = msledger's findings "
               "at that level: clean, NL/BB (N leaked allocations, B bytes), NR (leaked resources), NE (errors), "
               "'no report'; '!S' = exit status S under msledger where it differs from the plain run")
    for repo in repos:
        results = repo["examples"]
        out.append("")
        out.append("== %s (%s; linked with %s)" % (repo["name"], repo["root"],
                                                   " ".join("-l" + l for l in repo["libraries"])))
        headers = ["example", "operator", "built", "ran", "CANN", "device", "leak-free", "result"]
        if rewrite:
            headers.append("rewrite")
        rows = []
        for r in results:
            ops = ",".join(r["operators"]) or "?"
            if len(ops) > 40:
                ops = ops[:37] + "..."
            if r["built"]:
                cells = []
                for level in ("cann", "device"):
                    word = report_word(r[level]["report"], r[level])
                    if r[level]["status"] != r["plain"]["status"]:
                        word += " !" + r[level]["status"]
                    cells.append(word)
                row = [short_example(r["example"]), ops, "yes", r["plain"]["status"], cells[0], cells[1],
                       {True: "yes", False: "no", None: "-"}[r["leak_free"]], result_word(r["result"])]
            else:
                row = [short_example(r["example"]), ops, "no", "-", "-", "-", "-", "-"]
            if rewrite:
                row.append(r["rewrite"]["status"] if r["rewrite"] else "-")
            rows.append(row)
        out.append(format_table(rows, headers))
        t = repo["totals"]
        out.append("")
        out.append("-- %s totals: %d examples, %d built, %d ran to the end (%d under msledger at both levels), "
                   "%d leak-free (%d of those that ran to the end), results compared %d / matching %d%s" % (
                       repo["name"], t["examples"], t["built"], t["ran_to_end"], t["ran_to_end_under_msledger"],
                       t["leak_free"], t["leak_free_of_ran_to_end"], t["results_compared"],
                       t["results_matching"], " (%d n/a: no numpy)" % t["results_na"] if t["results_na"] else ""))
        out.append("   examples calling core operators only: %d, %d built, %d ran to the end" % (
            t["core_examples"], t["core_built"], t["core_ran_to_end"]))
        if "rewritten" in t:
            out.append("   rewritten %d, ok %d" % (t["rewritten"], t["rewrite_ok"]))
        if t["build_failures"]:
            out.append("   failed to build (%d):" % (t["examples"] - t["built"]))
            for reason, n in t["build_failures"][:8]:
                out.append("     %5d  %s" % (n, reason))
            out.append("   most common build failures in detail:")
            for reason, n in t["build_failure_details"]:
                out.append("     %5d  %s" % (n, reason[:150]))
        if t["run_failures"]:
            out.append("   built but did not run to the end (%d):" % (t["built"] - t["ran_to_end"]))
            for reason, n in t["run_failures"][:8]:
                out.append("     %5d  %s" % (n, reason))
            out.append("   most common run failures in detail:")
            for reason, n in t["run_failure_details"]:
                out.append("     %5d  %s" % (n, reason[:150]))
        compared = [r for r in results if r["result"] and r["result"]["status"] in ("match", "mismatch")]
        if compared:
            out.append("   results compared with the reference:")
            for r in compared:
                out.append("     %-8s %s: %s" % (r["result"]["status"], short_example(r["example"]),
                                                 r["result"]["detail"]))
        if repo["anomalies"]:
            out.append("   worth a look (%d):" % len(repo["anomalies"]))
            for a in repo["anomalies"][:60]:
                out.append("     %s: %s" % (short_example(a["example"]), a["what"]))
            if len(repo["anomalies"]) > 60:
                out.append("     ... %d more in the JSON report" % (len(repo["anomalies"]) - 60))
    out.append("")
    if meta["changed_during_run"]:
        out.append("WARNING: %d file(s) of the toolkit or of msledger changed during the run (rebuilt?), so "
                   "examples may have met two builds; run again for clean numbers: %s" % (
                       len(meta["changed_during_run"]), ", ".join(meta["changed_during_run"][:5]) +
                       (" ..." if len(meta["changed_during_run"]) > 5 else "")))
    out.append("wall time %.1f s, %d jobs" % (meta["wall_seconds"], meta["jobs"]))
    return "\n".join(out)


# ---------------------------------------------------------------------------


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="aclnn_examples.py", description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("checkouts", nargs="+", metavar="REPO_CHECKOUT",
                        help="a checkout of hicann/ops-math or hicann/ops-nn (a plain directory tree)")
    parser.add_argument("--toolkit", default=os.environ.get("ASCEND_HOME_PATH") or
                        os.path.join(SRCROOT, "build", "simcann"),
                        help="the CANN toolkit (default: $ASCEND_HOME_PATH, else build/simcann)")
    parser.add_argument("--msledger", default=os.path.join(SRCROOT, "build", "bin", "msledger"),
                        help="the launcher (default: this checkout's build/bin/msledger)")
    parser.add_argument("--msrewrite", default=os.path.join(SRCROOT, "build", "bin", "msrewrite"),
                        help="the rewriter, for --rewrite (default: this checkout's build/bin/msrewrite)")
    parser.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1,
                        help="examples handled at once (default: the number of CPUs)")
    parser.add_argument("--filter", help="only examples whose path in the checkout matches this regex")
    parser.add_argument("--limit", type=int, help="at most this many examples per repository")
    parser.add_argument("--experimental", action="store_true", help="take experimental/ in as well")
    parser.add_argument("--rewrite", action="store_true",
                        help="also rewrite each example with msrewrite, rebuild and check it")
    parser.add_argument("--timeout", type=float, default=20, help="seconds a run may take (default 20)")
    parser.add_argument("--build-timeout", type=float, default=180, help="seconds a build may take (default 180)")
    parser.add_argument("--json", metavar="OUT", help="also write the report as JSON to OUT")
    parser.add_argument("--work", help="where builds and reports go (default: a temporary directory, removed)")
    parser.add_argument("--keep", action="store_true", help="keep the executables in the work directory")
    parser.add_argument("--verbose", "-v", action="store_true", help="a line on stderr per example")
    args = parser.parse_args(argv)

    def usage(message):
        parser.print_usage(sys.stderr)
        print("aclnn_examples.py: error: " + message, file=sys.stderr)
        return 2

    if args.jobs < 1:
        return usage("--jobs wants 1 or more")
    if args.limit is not None and args.limit < 1:
        return usage("--limit wants 1 or more")
    if args.timeout <= 0 or args.build_timeout <= 0:
        return usage("timeouts must be positive")
    pattern = None
    if args.filter:
        try:
            pattern = re.compile(args.filter)
        except re.error as e:
            return usage("--filter: %s" % e)
    args.toolkit = os.path.abspath(args.toolkit)
    if not os.path.isfile(os.path.join(args.toolkit, "include", "acl", "acl.h")) or \
            not os.path.isdir(os.path.join(args.toolkit, "lib64")):
        return usage("%s is not a CANN toolkit (no include/acl/acl.h or lib64/)" % args.toolkit)
    for tool in ("msledger",) + (("msrewrite",) if args.rewrite else ()):
        path = getattr(args, tool)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            return usage("%s: %s is not an executable (--%s)" % (tool, path, tool))
        setattr(args, tool, os.path.abspath(path))
    for checkout in args.checkouts:
        if not os.path.isdir(checkout):
            return usage("%s is not a directory" % checkout)
    if shutil.which("g++") is None:
        return usage("g++ is not on PATH")

    started = time.monotonic()
    own_work = args.work is None
    args.work = os.path.abspath(args.work or tempfile.mkdtemp(prefix="aclnn-examples."))
    os.makedirs(os.path.join(args.work, "mssim-run"), exist_ok=True)
    core, core_source = core_operators(args.toolkit)
    rewrite_flags = []
    if args.rewrite:
        flags = subprocess.run([args.msrewrite, "--print-build-flags"], stdout=subprocess.PIPE,
                               universal_newlines=True)
        if flags.returncode != 0:
            return usage("msrewrite --print-build-flags failed")
        rewrite_flags = shlex.split(flags.stdout)
    runner = Runner(args, args.toolkit, core, rewrite_flags)
    before = fingerprint(args.toolkit, args.msledger)

    repos, jobs = [], []
    names = collections.Counter()
    for checkout in args.checkouts:
        root = os.path.abspath(checkout)
        name = repo_name(root)
        names[name] += 1
        if names[name] > 1:
            name = "%s#%d" % (name, names[name])
        examples = find_examples(root, args.experimental)
        if pattern:
            examples = [e for e in examples if pattern.search(e)]
        if args.limit:
            examples = examples[:args.limit]
        repo = {"name": name, "root": root, "libraries": repo_libraries(root, name), "examples": []}
        repos.append(repo)
        for rel in examples:
            jobs.append((repo, rel))
    if not jobs:
        print("aclnn_examples.py: no examples/**/test_aclnn_*.cpp under %s" % " ".join(args.checkouts),
              file=sys.stderr)

    done, lock = [0], threading.Lock()

    def one(job):
        repo, rel = job
        try:
            result = runner.example(repo["name"], repo["root"], rel, repo["libraries"])
        except Exception as e:  # a bug here must not lose the other examples
            result = {"repo": repo["name"], "example": rel, "operators": [], "built": False,
                      "build": {"reason": "internal error of aclnn_examples.py", "detail": repr(e)},
                      "plain": None, "cann": None, "device": None, "leak_free": None, "result": None,
                      "rewrite": None}
        with lock:
            done[0] += 1
            if args.verbose:
                print("[%d/%d] %s %s: %s" % (done[0], len(jobs), repo["name"], rel,
                                             result["plain"]["status"] if result["plain"] else "not built"),
                      file=sys.stderr, flush=True)
            elif done[0] % 50 == 0 or done[0] == len(jobs):
                print("aclnn_examples.py: %d/%d examples" % (done[0], len(jobs)), file=sys.stderr, flush=True)
        return result

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(one, jobs))
    for (repo, _), result in zip(jobs, results):
        repo["examples"].append(result)
    for repo in repos:
        repo["totals"] = totals(repo["examples"])
        repo["anomalies"] = [{"example": r["example"], "what": what} for r, what in anomalies(repo["examples"])]

    after = fingerprint(args.toolkit, args.msledger)
    changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
    meta = {
        "changed_during_run": changed,
        "toolkit": args.toolkit, "msledger": args.msledger, "msrewrite": args.msrewrite if args.rewrite else None,
        "core_operators": sorted(core), "core_source": core_source, "numpy": np is not None,
        "jobs": args.jobs, "timeout": args.timeout, "experimental": args.experimental,
        "command": " ".join(shlex.quote(a) for a in [sys.executable, os.path.abspath(__file__)] +
                            list(argv if argv is not None else sys.argv[1:])),
        "wall_seconds": round(time.monotonic() - started, 1),
    }
    print(text_report(repos, meta, args.rewrite))
    if args.json:
        for repo in repos:
            for r in repo["examples"]:
                for level in ("plain", "cann", "device"):
                    if r.get(level):
                        r[level].pop("stdout_digest", None)
        document = {"meta": meta, "repositories": repos}
        tmp = args.json + ".tmp%d" % os.getpid()
        with open(tmp, "w") as f:
            json.dump(document, f, indent=1)
        os.replace(tmp, args.json)
    if own_work:
        shutil.rmtree(args.work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
