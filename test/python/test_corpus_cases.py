"""Every corpus case through `compile` -> `run`, checked against its expected
outputs with the case's tolerances (test/corpus/README.md).

A case that compiles must produce the right numbers. A case that does not
compile must fail with a CompilationError located at the TTIR operation; the
cases known to compile today are listed so that a regression shows.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from corpus_data import CORPUS, load_run_case

import mtia_compiler

run_case = load_run_case()

CASES = sorted(path for path in CORPUS.iterdir() if (path / "case.json").exists())

#: The cases the compiler handles end to end today.
COMPILING = {
    "01_vector_add", "02_fused_softmax", "03b_matmul_fp32_ieee", "04_layernorm_fwd",
    "05_masked_where", "06_row_sum", "07_desc_device_scale", "07b_desc_host_matmul",
    "09_dtypes_dequant", "09b_int8_dot", "09c_fp8_cast", "10_control_flow",
    "10b_noinline_call", "11_transpose2d", "11b_copy2d", "11d_interleave_split", "12_math_funcs",
    "12b_libdevice_funcs", "12c_dropout", "12d_debug_ops", "13_flash_attn_fwd", "08_atomics",
    "11c_shape_ops", "13b_flash_attn_fwd_causal", "06b_reductions_scan", "03_matmul_leaky_relu",
}

LOCATED = re.compile(r"^[^\s:]+:\d+:\d+: error: ", re.M)


@pytest.mark.parametrize("variant", ["kernel.ttir", "kernel.noloc.ttir"])
@pytest.mark.parametrize("case_dir", CASES, ids=lambda path: path.name)
def test_corpus_case(case_dir: Path, variant: str) -> None:
    case, data = run_case.load_case(str(case_dir))
    try:
        kernel = mtia_compiler.compile(case_dir / variant)
    except mtia_compiler.CompilationError as error:
        assert LOCATED.search(str(error)), str(error)
        assert case_dir.name not in COMPILING, f"regression: {error}"
        return
    args, buffers = run_case.build_args(case, data)
    result = kernel.run(*args, grid=tuple(case["grid"]))
    assert result.cycles > 0
    assert run_case.check(case, data, buffers) is None
