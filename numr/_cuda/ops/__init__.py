"""CUDA op families: one mixin of CudaClient per file, named as in numr/ops/traits/."""
