"""numr.qmc: quasi-Monte Carlo point sets on the device, following scipy.stats.qmc's API
(Sobol, Halton, LatinHypercube, PoissonDisk, MultivariateNormalQMC, MultinomialQMC, discrepancy,
scale; every engine's integers() and optimization=). Unscrambled Sobol and Halton points equal
scipy's; scrambled ones use numr's seeded generator, so a seed gives the same points on every
backend (not scipy's bits)."""

from __future__ import annotations

from .discrepancy import discrepancy, scale
from .halton import Halton, LatinHypercube
from .multivariate import MultinomialQMC, MultivariateNormalQMC
from .poisson import PoissonDisk
from .sobol import Sobol

__all__ = ["Halton", "LatinHypercube", "MultinomialQMC", "MultivariateNormalQMC", "PoissonDisk", "Sobol",
           "discrepancy", "scale"]
