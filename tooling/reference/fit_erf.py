"""Fit the coefficients of attnkit's SIMD erf kernel (packages/backends/src/adapters/simd-kernels/simd-wat.ts).

erf(x), a = |x|:
  a < 1:  x * (c0 + t * A(t)),   t = x^2, c0 = 2/sqrt(pi), A of degree 5 (fit to the Taylor series)
  a >= 1: 1 - B(u) / Q(u),       u = min(a, 4) - 2.5, B of degree 8, Q of degree 4, Q(0) = 1
Fits are weighted least squares iterated towards minimax (Sanathanan-Koerner for the rational part,
Lawson-style reweighting), in float64, then checked in float32 with the kernel's order of operations.

Run: /usr/bin/python3 tooling/reference/fit_erf.py   (numpy only)
"""
import math
import numpy as np

C0 = 2 / math.sqrt(math.pi)
SPLIT, CAP, CENTRE = 1.0, 4.0, 2.5


def fit(x, f, numerator, denominator, iterations=300):
    """f ~ sum(a_k numerator_k) / (1 + sum(b_k denominator_k)); returns (max error, a, b)."""
    weight, q_prev, best = np.ones_like(x), np.ones_like(x), None
    for _ in range(iterations):
        columns = numerator + [-f * d for d in denominator]
        scale = weight / q_prev
        solution, *_ = np.linalg.lstsq(np.stack(columns, 1) * scale[:, None], f * scale, rcond=None)
        a, b = solution[: len(numerator)], solution[len(numerator):]
        q = 1 + sum(bk * d for bk, d in zip(b, denominator))
        error = np.abs(sum(ak * n for ak, n in zip(a, numerator)) / q - f)
        if best is None or error.max() < best[0]:
            best = (error.max(), a, b)
        q_prev, weight = q, weight * (error / error.max() + 1e-3) ** 0.3
        weight /= weight.max()
    return best


# small branch: (erf(x)/x - c0)/t from the Taylor series (no cancellation near 0)
xs = np.linspace(1e-4, SPLIT, 20001)
ts = xs * xs
series = np.array([C0 * sum((-1) ** n * t ** (n - 1) / (math.factorial(n) * (2 * n + 1)) for n in range(1, 30)) for t in ts])
_, A, _ = fit(xs, series, [ts ** k for k in range(6)], [])
# large branch: erfc(x) on [1, 4]
xl = np.linspace(SPLIT, CAP, 20001)
ul = xl - CENTRE
_, B, Qtail = fit(xl, np.array([math.erfc(v) for v in xl]), [ul ** k for k in range(9)], [ul ** k for k in range(1, 5)])
Q = np.concatenate([[1.0], Qtail])

f32 = np.float32


def horner(coefficients, v):
    acc = f32(coefficients[-1])
    for c in coefficients[-2::-1]:
        acc = acc * v + f32(c)
    return acc


x = np.linspace(-6, 6, 4_000_001, dtype=f32)
a = np.abs(x)
s = np.minimum(a, f32(SPLIT))
t = s * s
small = s * (f32(C0) + t * horner(A, t))
u = np.minimum(a, f32(CAP)) - f32(CENTRE)
large = f32(1) - horner(B, u) / horner(Q, u)
y = np.copysign(np.minimum(np.where(a < f32(SPLIT), small, large), f32(1)), x)
reference = np.array([math.erf(float(v)) for v in x])
error = np.abs(y.astype(np.float64) - reference)
print(f"float32 max abs error over [-6, 6]: {error.max():.3g} at x = {x[np.argmax(error)]}")
for name, values in (("A", A), ("B", B), ("Q", Q)):
    print(name, "[" + ", ".join(repr(float(f32(v))) for v in values) + "]")
