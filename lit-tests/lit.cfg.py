# lit configuration of the msledger suites.
#
# Substitutions:
#   %acl_cc / %acl_cxx  compile and link a C / C++ test program against the
#                       simulated CANN device (warnings are errors)
#   %simcann            the simulated toolkit (what ASCEND_HOME_PATH would be)
#   %hal_include        -I for the driver's header, which a toolkit keeps off
#                       the ACL include path (include/experiment/ascend_hal)
#   %aclnn_link         the aclnn libraries operator code links (after
#                       %acl_cc / %acl_cxx): -lnnopbase -lopapi
#   %npu-smi            the simulated npu-smi
#   %msledger           the launcher; %preload its interposer library
#   %ledger_link        flags to build against msledger/msledger.h and link libmsledger
#   %msrewrite          the rewriter; %make_db writes a compile_commands.json
#   %examples           utils/examples in the source tree
#   %cmake              the CMake that configured this build
#   %tree_hash DIR      a listing of DIR's files with their SHA-256 (diff two)
#   %cann_project       the multi-directory CMake application of lit-tests/integration
#   %srcroot            the project's source tree; %objroot its build tree
#   %msledger_version   the version project() gives both tools
#   %expect-exit N CMD  runs CMD and passes only if it exits with exactly N (or
#                       is killed by signal N, N a name such as SIGSEGV): no
#                       RUN line uses `not`, which a crash or a sanitizer's
#                       report would satisfy (lit-tests/Inputs/expect_exit.py;
#                       utils/lint_run_lines.py refuses `not`)
# FileCheck, not, count and split-file come from llvm-19-tools.
import os
import re
import subprocess

import lit.formats

config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".c", ".cpp", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
release = config.msledger_release
lit_root = os.path.dirname(__file__)
if release == "latest":
    config.name = "msledger"
    config.test_source_root = os.path.dirname(__file__)
    config.test_exec_root = os.path.join(config.msledger_obj_root, "lit-tests")
    simcann = config.msledger_simcann_dir
else:
    # An older release's toolkit: the rewriter suite again, as users of that
    # release would run it.
    config.name = "msledger-cann-" + release
    config.test_source_root = os.path.join(os.path.dirname(__file__), "rewriter")
    config.test_exec_root = os.path.join(config.msledger_obj_root, "lit-tests", "release-" + release, "rewriter")
    simcann = config.msledger_simcann_dir + "-" + release
config.available_features.add("cann-" + release)


def declared_apis(toolkit):
    """The catalog-style APIs (acl*, hi_mpi_*, hal*) the toolkit's headers declare."""
    names = set()
    pattern = re.compile(r"\b((?:acl|hi_mpi_|hal)\w*)\s*\(")
    for directory, _, files in os.walk(os.path.join(toolkit, "include")):
        for name in files:
            with open(os.path.join(directory, name)) as header:
                names.update(pattern.findall(header.read()))
    return names


# What this release has, for tests that need it: REQUIRES: cann-driver-header,
# cann-hi-dvpp, declares-NAME.
if os.path.isfile(os.path.join(simcann, "include", "experiment", "ascend_hal", "driver", "ascend_hal.h")):
    config.available_features.add("cann-driver-header")
if os.path.isfile(os.path.join(simcann, "include", "acl", "dvpp", "hi_dvpp.h")):
    config.available_features.add("cann-hi-dvpp")
for api in declared_apis(simcann):
    config.available_features.add("declares-" + api)
link = "-L{0}/lib64 -Wl,-rpath,{0}/lib64 -Wl,--no-as-needed -lascendcl -lacl_dvpp -lascend_hal -lpthread".format(simcann)
# The ACL headers' folder, as in a real toolkit; a test that includes the
# driver's header or DVPP's says so, as an application must (%hal_include,
# -DENABLE_DVPP_INTERFACE).
include = "-I{0}/include".format(simcann)
config.substitutions.append(
    ("%acl_cc", "{} {} -std=c11 -g -Wall -Wextra -Werror {} {}".format(config.c_compiler, config.c_flags, include, link)))
config.substitutions.append(
    ("%acl_cxx", "{} {} -std=c++17 -g -Wall -Wextra -Werror {} {}".format(config.cxx_compiler, config.cxx_flags,
                                                                         include, link)))
# aclnn's libraries, which operator code links beside libascendcl.so.
config.substitutions.append(("%aclnn_link", "-lnnopbase -lopapi"))
config.substitutions.append(("%hal_include", "-I{0}/include/experiment/ascend_hal".format(simcann)))
config.substitutions.append(("%simcann", simcann))
config.substitutions.append(("%npu-smi", os.path.join(config.msledger_bin_dir, "npu-smi")))
config.substitutions.append(("%msrewrite", os.path.join(config.msledger_bin_dir, "msrewrite")))
config.substitutions.append(("%make_db", "python3 " + os.path.join(lit_root, "rewriter", "Inputs",
                                                                    "make_db.py")))
# Ahead of %msledger, which would take its prefix.
config.substitutions.append(("%msledger_version", config.msledger_version))
config.substitutions.append(("%msledger", os.path.join(config.msledger_bin_dir, "msledger")))
config.substitutions.append(("%ledger_link", "{0} -L{1}/lib -Wl,-rpath,{1}/lib -lmsledger".format(
    " ".join("-I" + d for d in config.msledger_include_dirs), config.msledger_obj_root)))
config.substitutions.append(("%preload", os.path.join(config.msledger_obj_root, "lib", "libmsledger_preload.so")))
config.substitutions.append(("%examples", os.path.join(config.msledger_src_root, "utils", "examples")))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%tree_hash", "python3 " + os.path.join(lit_root, "integration", "Inputs",
                                                                     "tree_hash.py")))
config.substitutions.append(("%cann_project", os.path.join(lit_root, "integration", "Inputs",
                                                           "cann-project")))
config.substitutions.append(("%rewritten_example", "bash {0} %t {1} {2} {3} {4}".format(
    os.path.join(lit_root, "runtime", "Inputs", "rewritten-example.sh"),
    os.path.join(config.msledger_src_root, "utils", "examples"), simcann,
    os.path.join(config.msledger_bin_dir, "msrewrite"), config.cmake_command)))
# Microsoft's SARIF validator, which utils/setup.sh installs under the
# tools directory; every SARIF log a test writes goes through it.
config.substitutions.append(("%sarif_validate", "bash " + os.path.join(
    config.msledger_src_root, "utils", "sarif_validate.sh")))
config.substitutions.append(("%sarif_summary", "python3 " + os.path.join(
    lit_root, "runtime", "Inputs", "sarif_summary.py")))
config.environment["MSLEDGER_TOOLS_DIR"] = os.environ.get("MSLEDGER_TOOLS_DIR") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "msledger")
config.substitutions.append(("%expect-exit", "python3 " + os.path.join(lit_root, "Inputs", "expect_exit.py")))
config.substitutions.append(("%srcroot", config.msledger_src_root))
config.substitutions.append(("%objroot", config.msledger_obj_root))

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.msledger_bin_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
# Test processes publish their device use in the build tree, not in /dev/shm;
# tests that read it with npu-smi use a directory of their own.
config.environment["MSSIM_RUN_DIR"] = os.path.join(config.test_exec_root, "mssim-run")
# Compilers' and tools' messages in plain ASCII, as the CHECK lines spell them
# (gcc quotes 'name' with U+2018/U+2019 under a UTF-8 locale).
config.environment["LC_ALL"] = "C"
for variable in ("MSSIM_DEVICE_COUNT", "MSSIM_DEVICE_MEMORY", "ASCEND_HOME_PATH", "MSLEDGER_OPTIONS"):
    config.environment.pop(variable, None)
# A sanitizer run moves the simulated devices out of the sanitizer's memory
# (utils/sanitize.sh): MSSIM_GM_BASE, with the device count it fits.
if os.environ.get("MSSIM_GM_BASE"):
    for variable in ("MSSIM_GM_BASE", "MSSIM_DEVICE_COUNT"):
        if variable in os.environ:
            config.environment[variable] = os.environ[variable]

if config.msledger_cann_simulated:
    config.available_features.add("simulated-cann")
# A small tmpfs of a test's own, in a mount namespace of its own (root, or
# CAP_SYS_ADMIN): for what a full filesystem does.
if subprocess.run(["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=1m tmpfs /mnt && umount /mnt"],
                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
    config.available_features.add("private-tmpfs")
