"""Both corpora on a target whose PEs have a sixteenth of mtia-2i's local
memory (24 KiB): blocks that fitted no longer do, so the strip-miner
(`mtia-strip-mine-blocks`, and the compiler's retries with smaller strips)
must run them in strips or tiles (or through scratch memory) with the same
numbers. None is refused for local memory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from corpus_data import CORPUS, KERNEL_CASES, LOCATED, load_run_case

import mtia_compiler

run_case = load_run_case()

CASES = sorted(path for cases in (CORPUS, KERNEL_CASES) for path in cases.iterdir()
               if (path / "case.json").exists())

@pytest.fixture(scope="module")
def small_target(tmp_path_factory: pytest.TempPathFactory) -> Path:
    description = json.loads(
        (Path(__file__).resolve().parents[2] / "targets" / "mtia-2i.json").read_text())
    description["name"] = "mtia-2i-24k"
    description["local_memory"]["bytes_per_pe"] //= 16
    path = tmp_path_factory.mktemp("targets") / "mtia-2i-24k.json"
    path.write_text(json.dumps(description))
    return path


@pytest.mark.parametrize("case_dir", CASES, ids=lambda path: path.name)
def test_case_with_a_sixteenth_of_the_local_memory(case_dir: Path, small_target: Path) -> None:
    case, data = run_case.load_case(str(case_dir))
    try:
        kernel = mtia_compiler.compile(case_dir / "kernel.ttir", target=str(small_target))
    except mtia_compiler.LocalMemoryError as error:
        pytest.fail(f"{case_dir.name} does not fit: {error}")
    except mtia_compiler.CompilationError as error:
        # The kernels that mtia-2i refuses for another reason (inline assembly).
        assert LOCATED.search(str(error)), str(error)
        assert "local-memory" not in str(error)
        with pytest.raises(mtia_compiler.CompilationError):
            mtia_compiler.compile(case_dir / "kernel.ttir")
        return
    args, buffers = run_case.build_args(case, data)
    kernel.run(*args, grid=tuple(case["grid"]))
    assert run_case.check(case, data, buffers) is None
