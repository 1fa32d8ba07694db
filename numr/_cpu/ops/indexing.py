"""CPU implementation of the indexing op family (see numr/ops/traits/indexing.py)."""

from __future__ import annotations


class IndexingCpu:
    """Mixin of CpuClient: the indexing ops."""
