"""var_* ops by family: each records a GradFn whose formula is written with numr
functions, so it runs on Tensors (first order) and on Vars (higher order)."""
