# lit configuration of the GoogleTest suites: every binary ending in "Tests"
# under build/bin/unittests is one suite, each TEST one lit test.
import os

import lit.formats

config.name = "msledger-unit"
config.test_format = lit.formats.GoogleTest(".", "Tests")
config.test_source_root = config.msledger_unittest_dir
config.test_exec_root = config.msledger_unittest_dir
# Processes the tests start publish their device use here, not in /dev/shm.
config.environment["MSSIM_RUN_DIR"] = os.path.join(config.msledger_obj_root, "unittests", "mssim-run")
