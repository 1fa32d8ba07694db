"""Generator objects: NumPy's ``default_rng`` / ``Generator`` and torch's ``Generator`` over numr's
counter-based Philox streams.

A Generator is a private copy of the global generator of numr/random.py: a 64-bit seed (the
Philox key) and a stream counter. Each sampling call takes its next stream, exactly as calls
without ``seed=`` take the global one's, so ``default_rng(s)`` followed by some calls gives the
same numbers as ``nr.manual_seed(s)`` followed by the same nr.* calls, and neither disturbs the
other. Every sampler also takes the Generator as ``seed=`` (``nr.normal(0, 1, 5, seed=g)``: torch's
``generator=``). ``bit_generator.state`` (or torch's get_state/set_state) is the (seed, stream)
pair, so a run can be replayed from any point; ``spawn(n)`` gives children keyed by a hash of
(seed, spawn key), as NumPy's SeedSequence, so their streams are independent of the parent's.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from typing import Any

from .errors import DomainError
from .random import MASK64


def _fresh() -> int:
    """64 bits of OS entropy (NumPy's default_rng(None))."""
    return secrets.randbits(64)


class SeedSequence:
    """NumPy's SeedSequence shape: entropy plus a spawn key; ``generate_state()`` is the 64-bit
    Philox key (the entropy itself for the root, so default_rng(SeedSequence(s)) == default_rng(s))."""

    def __init__(self, entropy: int | None = None, spawn_key: tuple[int, ...] = ()):
        self.entropy = _fresh() if entropy is None else int(entropy)
        self.spawn_key = tuple(int(k) for k in spawn_key)
        self.n_children_spawned = 0

    def generate_state(self) -> int:
        if not self.spawn_key:
            return self.entropy & MASK64
        data = ",".join(str(v) for v in (self.entropy, *self.spawn_key)).encode()
        return int.from_bytes(hashlib.blake2b(data, digest_size=8, person=b"numr-spawn").digest(), "little")

    def spawn(self, n: int) -> list[SeedSequence]:
        first = self.n_children_spawned
        self.n_children_spawned += int(n)
        return [SeedSequence(self.entropy, self.spawn_key + (i,)) for i in range(first, first + int(n))]

    def __repr__(self) -> str:
        return f"SeedSequence(entropy={self.entropy}, spawn_key={self.spawn_key})"


class Philox:
    """The bit generator: a Philox4x32-10 key and a stream counter (thread-safe)."""

    def __init__(self, seed: Any = None):
        self.seed_seq = seed if isinstance(seed, SeedSequence) else SeedSequence(seed)
        self._lock = threading.Lock()
        self._seed, self._stream = self.seed_seq.generate_state(), 0

    def next_stream(self) -> tuple[int, int]:
        with self._lock:
            self._stream += 1
            return self._seed, self._stream

    @property
    def state(self) -> dict:
        """{"bit_generator": "Philox4x32-10", "seed": key, "stream": streams taken so far}."""
        return {"bit_generator": "Philox4x32-10", "seed": self._seed, "stream": self._stream}

    @state.setter
    def state(self, value: dict) -> None:
        if not isinstance(value, dict) or value.get("bit_generator", "Philox4x32-10") != "Philox4x32-10":
            raise DomainError(f"Philox.state: needs a dict from Philox.state, got {value!r}")
        try:
            seed, stream = int(value["seed"]), int(value["stream"])
        except (KeyError, TypeError, ValueError):
            raise DomainError(f"Philox.state: needs integer 'seed' and 'stream', got {value!r}") from None
        if not (0 <= seed <= MASK64 and 0 <= stream <= MASK64):
            raise DomainError(f"Philox.state: seed and stream must be in [0, 2**64), got {seed}, {stream}")
        with self._lock:
            self._seed, self._stream = seed, stream


def _nr() -> Any:
    import numr
    return numr


def _forward(name: str, kind: str, doc: str) -> Any:
    """A Generator method calling nr.<name> with seed=self; kind 'f' also passes the generator's
    dtype and device, 'i' its device, '' neither."""

    def method(self: Generator, *args: Any, **kw: Any) -> Any:
        return getattr(_nr(), name)(*args, **self._kw(kind, kw))

    method.__name__, method.__doc__ = name, f"{doc} (nr.{name} with this generator's stream)."
    return method


class Generator:
    """NumPy's Generator API (and torch.Generator's) over its own Philox key and stream counter.

    ``Generator(device=None, *, seed=None, dtype=None)``: torch's constructor (``seed=None`` takes
    fresh entropy; ``manual_seed`` fixes it); a Philox instance as first argument is NumPy's
    ``Generator(bit_generator)``. ``device``/``dtype`` are the defaults of its float samplers (each
    call may override them); the default dtype is numr's default float.
    """

    def __init__(self, device: Any = None, *, seed: Any = None, dtype: Any = None):
        if isinstance(device, Philox):
            self.bit_generator, device = device, None
        else:
            self.bit_generator = Philox(seed)
        self.device, self.dtype = device, dtype

    # ---- state: NumPy and torch spellings ------------------------------------------------------
    def next_stream(self) -> tuple[int, int]:
        """(seed, stream) for one sampling call: makes a Generator usable as ``seed=``."""
        return self.bit_generator.next_stream()

    def manual_seed(self, seed: int) -> Generator:
        """torch.Generator.manual_seed: key = seed, stream counter 0; returns self."""
        self.bit_generator = Philox(int(seed))
        return self

    def seed(self) -> int:
        """torch.Generator.seed: a fresh non-deterministic seed (returned)."""
        s = _fresh()
        self.manual_seed(s)
        return s

    def initial_seed(self) -> int:
        return self.bit_generator.state["seed"]

    def get_state(self) -> dict:
        return self.bit_generator.state

    def set_state(self, state: dict) -> Generator:
        self.bit_generator.state = state
        return self

    def spawn(self, n: int) -> list[Generator]:
        """n children with independent keys (hash of this generator's seed sequence and a spawn key)."""
        return [Generator(Philox(s), dtype=self.dtype)._on(self.device) for s in self.bit_generator.seed_seq.spawn(n)]

    def _on(self, device: Any) -> Generator:
        self.device = device
        return self

    def _kw(self, kind: str, kw: dict) -> dict:
        if kind and self.device is not None:
            kw.setdefault("device", self.device)
        if kind == "f" and self.dtype is not None:
            kw.setdefault("dtype", self.dtype)
        kw["seed"] = self
        return kw

    def __repr__(self) -> str:
        st = self.bit_generator.state
        return f"Generator(Philox4x32-10, seed={st['seed']}, stream={st['stream']}, device={self.device})"

    # ---- NumPy's methods whose names or parametrisation differ from nr.* -------------------------
    def random(self, size: Any = None, dtype: Any = None, **kw: Any) -> Any:
        """Uniform on [0, 1) (nr.rand)."""
        return _nr().rand(() if size is None else size, **self._kw("f", {"dtype": dtype or self.dtype, **kw}))

    def standard_normal(self, size: Any = None, dtype: Any = None, **kw: Any) -> Any:
        """N(0, 1) (nr.randn)."""
        return _nr().randn(() if size is None else size, **self._kw("f", {"dtype": dtype or self.dtype, **kw}))

    def integers(self, low: int, high: int | None = None, size: Any = None, dtype: Any = None,
                 endpoint: bool = False, **kw: Any) -> Any:
        """Integers on [low, high) ([low, high] with endpoint=True; high None: [0, low)), int64."""
        if high is None:
            low, high = 0, low
        high = int(high) + (1 if endpoint else 0)
        return _nr().randint(int(low), high, () if size is None else size,
                             **self._kw("i", {"dtype": dtype or "int64", **kw}))

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None, **kw: Any) -> Any:
        return _nr().normal(loc, scale, size, **self._kw("f", kw))

    def exponential(self, scale: Any = 1.0, size: Any = None, **kw: Any) -> Any:
        """Exponential of the given scale (mean); nr.exponential takes the rate 1 / scale."""
        return _nr().exponential(1.0 / scale, size, **self._kw("f", kw))

    def chisquare(self, df: Any, size: Any = None, **kw: Any) -> Any:
        return _nr().chi_square(df, size, **self._kw("f", kw))

    def poisson(self, lam: Any = 1.0, size: Any = None, **kw: Any) -> Any:
        return _nr().poisson(lam, size, **self._kw("i", kw))

    def binomial(self, n: Any, p: Any, size: Any = None, **kw: Any) -> Any:
        return _nr().binomial(n, p, size, **self._kw("i", kw))

    f = _forward("f_distribution", "f", "F(dfnum, dfden)")
    multinomial = _forward("multinomial_counts", "i", "NumPy's multinomial counts of n trials over pvals")
    power = _forward("power_distribution", "f", "Power distribution of shape a on [0, 1]")


for _name, _kind in (("uniform", "f"), ("lognormal", "f"), ("laplace", "f"), ("gumbel", "f"), ("gamma", "f"),
                     ("beta", "f"), ("standard_exponential", "f"), ("standard_gamma", "f"),
                     ("standard_cauchy", "f"), ("standard_t", "f"), ("noncentral_chisquare", "f"),
                     ("noncentral_f", "f"), ("weibull", "f"), ("rayleigh", "f"), ("logistic", "f"),
                     ("pareto", "f"), ("wald", "f"), ("triangular", "f"), ("vonmises", "f"), ("dirichlet", "f"),
                     ("multivariate_normal", "f"), ("negative_binomial", "i"), ("geometric", "i"),
                     ("hypergeometric", "i"), ("zipf", "i"), ("logseries", "i"), ("choice", "i"),
                     ("permutation", "i"), ("shuffle", ""), ("permuted", "")):
    setattr(Generator, _name, _forward(_name, _kind, f"NumPy's Generator.{_name}"))


def default_rng(seed: Any = None, *, device: Any = None, dtype: Any = None) -> Generator:
    """NumPy's default_rng: a Generator keyed by ``seed`` (an int, a SeedSequence, None for fresh
    entropy); a Generator is returned as is."""
    if isinstance(seed, Generator):
        return seed
    return Generator(Philox(seed), dtype=dtype)._on(device)
