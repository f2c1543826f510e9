# -*- Python -*-
# lit configuration for the waveasm-opt text tests. The build writes
# lit.site.cfg.py (tool paths) into the build tree and loads this file from
# there; run the suite with `lit -sv <build>/tests/lit` or `ctest -R lit`.
#
# Test files are kernels in the text form (*.wa) or plain scripts (*.test).
# '#' lines are ignored by the parser, so `# RUN:` and `# CHECK:` lines sit in
# the kernel file itself. Substitutions in RUN lines:
#   waveasm-opt, FileCheck, not, llvm-mc, ld.lld, llvm-readelf   the tools
#   %{examples}     the examples/ directory of the source tree
#   %{python}       the Python interpreter running lit
#   %{expect-exit}  `%{expect-exit} N cmd args...` runs cmd and succeeds only
#                   if it exits with status N (for exit codes other than 0/1)
# Features for REQUIRES: llvm-mc, ld.lld, llvm-readelf, mlir (waveasm-translate,
# the MLIR front end's driver, is built; *.mlir tests need it).

import os
import re
import sys

import lit.formats

config.name = "waveasm"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".wa", ".test", ".mlir"]
config.excludes = ["Inputs", "utils", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]

if not getattr(config, "waveasm_opt", None):
    lit_config.fatal("run the tests from the build tree: lit <build>/tests/lit")

# Pass through what the tools may need; nothing else from the environment.
for var in ("HOME", "TMPDIR", "TMP", "TEMP", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]


def tool(name, path):
    # Replace `name` only where it stands as a command word: not inside a path,
    # a file name or a longer word.
    pattern = r"(?<![\w./%-])" + re.escape(name) + r"(?![\w.-])"
    config.substitutions.append((pattern, path.replace("\\", "\\\\")))


utils = os.path.join(config.test_source_root, "utils")
config.substitutions.append((re.escape("%{examples}"), config.examples_dir))
config.substitutions.append((re.escape("%{python}"), '"' + sys.executable + '"'))
config.substitutions.append(
    (
        re.escape("%{expect-exit}"),
        '"' + sys.executable + '" "' + os.path.join(utils, "expect-exit.py") + '"',
    )
)

tool("waveasm-opt", config.waveasm_opt)
tool("FileCheck", config.filecheck)
tool("not", config.not_tool)
# The MLIR front end's driver, when the build has it (feature `mlir`).
if getattr(config, "waveasm_translate", "") and os.path.exists(config.waveasm_translate):
    config.available_features.add("mlir")
    tool("waveasm-translate", config.waveasm_translate)
if getattr(config, "split_file", "") and os.path.exists(config.split_file):
    tool("split-file", config.split_file)
for feature, path in (
    ("llvm-mc", config.llvm_mc),
    ("ld.lld", config.ld_lld),
    ("llvm-readelf", config.llvm_readelf),
    ("llc", getattr(config, "llc", "")),
):
    if path and os.path.exists(path):
        config.available_features.add(feature)
        tool(feature, path)
