"""The WGSL template step's include mechanism (numr/_wgpu/template.py): no GPU needed."""

from __future__ import annotations

from numr._wgpu import template as tpl


def test_include_once_keeps_the_first_copy_of_each_file():
    src = "\n".join([
        "//@begin a.wgsl", "fn a() {}", "//@begin b.wgsl", "fn b() {}", "//@end b.wgsl", "//@end a.wgsl",
        "fn main() {}",
        "//@begin b.wgsl", "fn b() {}", "//@end b.wgsl",
        "//@begin a.wgsl", "fn a() {}", "//@begin b.wgsl", "fn b() {}", "//@end b.wgsl", "//@end a.wgsl",
        "fn tail() {}",
    ])
    out = tpl.include_once(src)
    assert out.count("fn a() {}") == 1 and out.count("fn b() {}") == 1
    assert out.index("fn a()") < out.index("fn main()") < out.index("fn tail()")


def test_mulhilo_is_defined_once_in_a_float64_random_kernel():
    """random.wgsl and math64.wgsl (through common.wgsl's float64 constants) both include it."""
    parts = [tpl.find("common.wgsl", "consts", "d"), tpl.sections("random.wgsl")["main"]]
    src = tpl.include_once("\n".join(parts))
    assert src.count("fn mulhilo(") == 1
    assert "mulhilo(0xD2511F53u" in src and "mulhilo(mi, w)" in src
