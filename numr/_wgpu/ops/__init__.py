"""wgpu op families, one module per family (same names as numr/ops/traits/)."""
