"""Every CUDA kernel source compiles with NVRTC for sm_90 and sm_80, for every dtype, and exports
the kernels numr launches. Needs only cuda-python + the NVRTC/runtime-header wheels (no GPU)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from kernel_names import FAMILIES, names

import numr as nr

compiler = pytest.importorskip("numr._cuda.compiler")
try:
    compiler.nvrtc_version()
    compiler.cuda_include_dir()
    _why = None
except Exception as e:  # no cuda-python / NVRTC wheel here
    _why = f"NVRTC unavailable: {e}"

pytestmark = pytest.mark.skipif(_why is not None, reason=_why or "")


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    d = tmp_path_factory.mktemp("nvrtc_cache")
    old = os.environ.get("NUMR_CUDA_CACHE_DIR")
    os.environ["NUMR_CUDA_CACHE_DIR"] = str(d)
    yield d
    if old is None:
        os.environ.pop("NUMR_CUDA_CACHE_DIR", None)
    else:
        os.environ["NUMR_CUDA_CACHE_DIR"] = old


def test_every_source_is_tested():
    sources = {p.stem for p in compiler.KERNEL_DIR.glob("*.cu")}
    assert sources == set(FAMILIES)


def _compile(job: tuple[str, int, str]) -> tuple[str, int, str, bytes | str]:
    family, code, arch = job
    try:
        return family, code, arch, compiler.compile_program(family, code, arch)
    except Exception as e:  # KernelCompileError carries NVRTC's log
        return family, code, arch, f"{type(e).__name__}: {e}"


def _check_programs(jobs: list[tuple[str, int, str]]) -> None:
    """Compile every job in parallel processes; report every error and every kernel missing from
    the output (a CUBIN's symbol table or a PTX's ``.entry`` lines)."""
    from concurrent.futures import ProcessPoolExecutor

    errors, missing = [], {}
    with ProcessPoolExecutor(max_workers=max(1, min(8, os.cpu_count() or 1))) as ex:
        for family, code, arch, res in ex.map(_compile, jobs):
            d = nr.dtypes.from_code(code)
            if isinstance(res, str):
                errors.append(f"{family} {d} {arch}: {res[:3000]}")
                continue
            if arch.startswith("sm_"):
                assert res[:4] == b"\x7fELF", f"{family} {d}: not a CUBIN"
                lost = [n for n in names(family, d) if n.encode() + b"\0" not in res]
            else:
                assert b".version" in res[:4096], f"{family} {d}: not PTX"
                lost = [n for n in names(family, d) if b".entry " + n.encode() + b"(" not in res]
            if lost:
                missing[f"{family}/{d}/{arch}"] = lost
    assert not errors, "\n".join(errors)
    assert not missing, f"kernels missing from the compiled programs: {missing}"


@pytest.mark.parametrize("arch", ["sm_90", "compute_80"])
def test_compiles_every_family_and_dtype(arch, cache):
    """Every (family, dtype) program: CUBIN for sm_90 (NVRTC and the assembler), PTX for the sm_80
    generation (NVRTC's front end and code generation with __CUDA_ARCH__ = 800, where the
    architecture-dependent code differs; half the time of a CUBIN)."""
    _check_programs([(f, d.code, arch) for f in FAMILIES for d in nr.ALL_DTYPES])


def test_sm80_cubins_of_the_arch_dependent_dtypes(cache):
    """Full CUBINs for sm_80 where the code depends on the architecture: bfloat16 (tensor-core
    MMA, 16-bit atomics from sm_80 on) and float8 (conversions native only from sm_89) in every
    family."""
    _check_programs([(f, d.code, "sm_80") for f in FAMILIES for d in (nr.bfloat16, nr.float8_e4m3fn)])


def test_compile_error_carries_log(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMR_CUDA_CACHE_DIR", "off")
    monkeypatch.setattr(compiler, "program_source", lambda family: "this is not C++;")
    with pytest.raises(nr.KernelCompileError) as e:
        compiler.compile_program("broken", 1, "sm_90")
    assert "broken" in str(e.value) and e.value.log and "error" in e.value.log


def test_pick_arch():
    assert compiler.pick_arch(9, 0) == "sm_90"
    assert compiler.pick_arch(8, 0) == "sm_80"
    assert compiler.pick_arch(8, 6) == "sm_86"
    with pytest.raises(nr.KernelCompileError):
        compiler.pick_arch(5, 2)


# ---- disk cache -------------------------------------------------------------------------
def _fresh(monkeypatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("NUMR_CUDA_CACHE_DIR", str(tmp_path))
    compiler.clear_memory_cache()
    return tmp_path


def test_disk_cache_hit_on_second_use(tmp_path, monkeypatch):
    d = _fresh(monkeypatch, tmp_path)
    before = dict(compiler.stats)
    a = compiler.compile_program("conditional", nr.bool_.code, "sm_90")
    assert compiler.stats["compiled"] == before["compiled"] + 1
    files = list(d.glob("*.cubin"))
    assert len(files) == 1 and files[0].read_bytes() == a
    assert not list(d.glob("*.tmp")), "temporary files left behind"
    compiler.clear_memory_cache()
    b = compiler.compile_program("conditional", nr.bool_.code, "sm_90")
    assert b == a
    assert compiler.stats["compiled"] == before["compiled"] + 1
    assert compiler.stats["disk_hits"] == before["disk_hits"] + 1
    compiler.compile_program("conditional", nr.bool_.code, "sm_90")  # memory hit now
    assert compiler.stats["memory_hits"] >= before["memory_hits"] + 1


def test_disk_cache_miss_when_options_or_source_change(tmp_path, monkeypatch):
    _fresh(monkeypatch, tmp_path)
    compiler.compile_program("conditional", nr.bool_.code, "sm_90")
    n = compiler.stats["compiled"]
    compiler.compile_program("conditional", nr.bool_.code, "sm_90", extra=("-DNUMR_TEST_OPTION=1",))
    assert compiler.stats["compiled"] == n + 1
    compiler.compile_program("conditional", nr.bool_.code, "sm_80")  # another arch
    assert compiler.stats["compiled"] == n + 2
    real = compiler.program_source
    monkeypatch.setattr(compiler, "program_source", lambda fam: real(fam) + "\n// changed\n")
    compiler.compile_program("conditional", nr.bool_.code, "sm_90")
    assert compiler.stats["compiled"] == n + 3
    assert len(list(tmp_path.glob("*.cubin"))) == 4


def test_cache_key_covers_inputs():
    k = compiler.cache_key("src", ["-a", "-b"], "sm_90")
    assert k == compiler.cache_key("src", ["-b", "-a"], "sm_90")  # sorted options
    assert k != compiler.cache_key("src2", ["-a", "-b"], "sm_90")
    assert k != compiler.cache_key("src", ["-a"], "sm_90")
    assert k != compiler.cache_key("src", ["-a", "-b"], "sm_80")


def test_cache_can_be_disabled(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMR_CUDA_CACHE_DIR", "off")
    assert compiler.cache_dir() is None
    monkeypatch.setenv("NUMR_CUDA_CACHE_DIR", str(tmp_path / "x"))
    assert compiler.cache_dir() == tmp_path / "x"
