"""Closed forms behind the end-pose checker's ways with one or two wheels (docs/rules.md §4.8).

Everything here is about the unit's *front centre* F = centre + (D/2) f(heading), with
f(h) = (cos h, sin h), l(h) = (-sin h, cos h) and rho = W/2 (W frontage, D depth).  In every
step it moves along the heading: a forward step of length a by a f(h); a wheel by t about
the inner front corner by s rho (l(h) - l(h + t)), s = sign(t) (docs/rules.md §4.2).  So a
way is a path of straight pieces and arcs of radius rho, and its cost (docs/rules.md §4.3)
is the sum of the legs plus W |sin t| per wheel.

The one primitive, `circle_wheel_points`: a start pose whose heading psi is free and whose
front centre lies on a circle tied to that heading, S(psi) = Q + alpha f(psi) + beta l(psi),
then forward a, wheel t = E - psi, forward b to a fixed point Z with the fixed heading E.
In the frame of E, with P = Z - Q and the half-angle variable w = tan(|t|/2) on one side
s = sign(t) (derivation in `circle_wheel_points`):

    2w a = (-s(P_y + beta) - 2 rho) w^2 - 2 alpha w + s(beta - P_y)
    2w b = (-s(P_y + beta) - 2 rho) w^2 + 2 P_x w + s(P_y - beta)
    cost = P_x - alpha - s(P_y + beta) w - 2 rho w + 4 rho w / (1 + w^2)

Both legs are quadratics over 2w, so where they are non-negative is known exactly (roots in
closed form); the cost is concave in w on [0, 1], so on each interval where both legs are
non-negative its least value is at an end.  An Advance's Pivot then one wheel is this with
Q the unit's centre, alpha = D/2, beta = 0.  Two wheels with one leg zero reduce to it too
(the other wheel turns the start, or by reversing the way, the end, onto a circle); the
other wheel's cost 2 rho s_o sin(K + sigma t) is added, and its stationary points are the
real roots of a quartic.  Two wheels back to back (the middle leg zero) give legs and cost
that are sinusoids of the first wheel: `sinusoid_roots` and `sinusoid_min`.

Angles are radians in this module; arrays are batches of independent problems (shape (N,)),
and each function returns candidate parameters (N, k), NaN where a slot holds none.
"""

from __future__ import annotations

import numpy as np

_REL = 1e-12  # relative slack for a discriminant or a range end computed in floats


def quadratic_roots(c2: np.ndarray, c1: np.ndarray, c0: np.ndarray) -> np.ndarray:
    """Real roots of c2 x^2 + c1 x + c0 (N, 2), NaN where there are none.

    The numerically stable pair (q / c2, c0 / q), so a small root is not lost to
    cancellation; a discriminant that is negative only by rounding counts as zero (a double
    root), and c2 = 0 leaves the linear root.
    """
    c2, c1, c0 = np.broadcast_arrays(*(np.asarray(c, dtype=float) for c in (c2, c1, c0)))
    disc = c1 * c1 - 4.0 * c2 * c0
    scale = c1 * c1 + np.abs(4.0 * c2 * c0)
    disc = np.where((disc < 0) & (disc >= -_REL * scale), 0.0, disc)
    root = np.sqrt(np.where(disc >= 0, disc, np.nan))
    q = -0.5 * (c1 + np.where(c1 >= 0, 1.0, -1.0) * root)
    with np.errstate(divide="ignore", invalid="ignore"):
        first = np.where(c2 != 0, q / c2, np.where(c1 != 0, -c0 / c1, np.nan))
        second = np.where((c2 != 0) & (q != 0), c0 / q, np.nan)
    return np.stack([first, second], axis=-1)


def quartic_roots(coeffs: np.ndarray) -> np.ndarray:
    """Real roots of c4 x^4 + c3 x^3 + c2 x^2 + c1 x + c0 per row of `coeffs` (N, 5), as (N, 4)
    with NaN for complex roots; each real root is polished by two Newton steps.

    Eigenvalues of the companion matrices, batched; a row whose leading coefficient is
    negligible (a root near infinity) goes to `np.roots`, which drops it.
    """
    coeffs = np.atleast_2d(np.asarray(coeffs, dtype=float))
    out = np.full((len(coeffs), 4), np.nan + 0j)
    usable = np.all(np.isfinite(coeffs), axis=-1) & np.any(coeffs != 0, axis=-1)
    lead = np.abs(coeffs[:, 0]) > 1e-9 * np.max(np.abs(coeffs), axis=-1)
    batch = usable & lead
    if batch.any():
        monic = coeffs[batch, 1:] / coeffs[batch, :1]
        companion = np.zeros((int(batch.sum()), 4, 4))
        companion[:, 0, :] = -monic
        companion[:, 1:, :-1] = np.eye(3)
        out[batch] = np.linalg.eigvals(companion)
    for i in np.nonzero(usable & ~lead)[0]:
        roots = np.roots(coeffs[i])
        out[i, :len(roots)] = roots
    real = np.where(np.abs(out.imag) <= 1e-7 * (1.0 + np.abs(out.real)), out.real, np.nan)
    return _newton(coeffs, real)


def _newton(coeffs: np.ndarray, x: np.ndarray, steps: int = 2) -> np.ndarray:
    """Polish roots x (N, k) of the polynomials `coeffs` (N, 5) by Newton steps (Horner)."""
    for _ in range(steps):
        value, slope = np.zeros_like(x), np.zeros_like(x)
        for c in coeffs.T:
            slope = slope * x + value
            value = value * x + c[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            step = value / slope
        x = x - np.where(np.isfinite(step), step, 0.0)
    return x


def sinusoid_roots(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """The x in [-pi, pi) with a + b cos x + c sin x = 0 (N, 2), NaN where there are none."""
    r = np.hypot(b, c)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = -a / r
    ratio = np.where(np.abs(ratio) <= 1.0 + _REL, np.clip(ratio, -1.0, 1.0), np.nan)
    phase, spread = np.arctan2(c, b), np.arccos(ratio)
    roots = np.stack([phase + spread, phase - spread], axis=-1)
    return (roots + np.pi) % (2.0 * np.pi) - np.pi


def sinusoid_min(b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Where a + b cos x + c sin x is least, in [-pi, pi) (N, 1); NaN when it is constant."""
    at = np.arctan2(-c, -b)
    return np.where(np.hypot(b, c) > 0, at, np.nan)[..., None]


def in_frame(vector: np.ndarray, heading: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(along f(heading), along l(heading)) of a batch of vectors (N, 2)."""
    cos, sin = np.cos(heading), np.sin(heading)
    return vector[..., 0] * cos + vector[..., 1] * sin, -vector[..., 0] * sin + vector[..., 1] * cos


def circle_wheel_points(p: tuple[np.ndarray, np.ndarray], alpha: np.ndarray, beta: np.ndarray,
                        rho: float, side: float, w_range: tuple[np.ndarray, np.ndarray],
                        extra: tuple[np.ndarray, float, float] | None = None,
                        samples: int = 6) -> np.ndarray:
    """Candidate w = tan(|t|/2) of the way "forward a, wheel t, forward b" from the circle.

    Parameters
    ----------
    p : (P_x, P_y)
        Z - Q in the frame of the end heading E (module docstring).
    alpha, beta : np.ndarray
        The start circle: S(psi) = Q + alpha f(psi) + beta l(psi).
    rho : float
        Half the frontage.
    side : float
        +1 for a left wheel (t > 0), -1 for a right one.
    w_range : (w_lo, w_hi)
        The allowed w, from the allowed |t| (NaN where none is allowed).
    extra : (K, sigma, s_o), optional
        Another wheel K + sigma t of sign s_o whose cost 2 rho |sin| is added.
    samples : int
        Points spread over the range besides the exact ones, for ways other than the
        cheapest when the cheapest break a clause that depends on the way.

    Returns
    -------
    np.ndarray
        (N, k) values of w in the range: the range's ends, the roots of both legs (where
        the set of ways with non-negative legs begins and ends), the cost's stationary
        points when `extra` is given (without it the cost is concave in w and its least
        value on an interval is at an end), and the samples.  Every end of every interval
        where both legs are non-negative is among them, so the cheapest way of the family
        is one of these points.

    Notes
    -----
    Derivation (frame of E: f(E) = (1, 0), t = E - psi, f(psi) = (cos t, -sin t),
    l(psi) = (sin t, cos t)).  Z = S(psi) + a f(psi) + s rho (l(psi) - l(E)) + b f(E); the
    second coordinate gives a = -P_y csc t - alpha + beta cot t - rho |tan(t/2)| and the
    first b = P_x + P_y cot t - beta csc t - rho |tan(t/2)|; with u = tan(t/2) = s w,
    csc t = s(1 + w^2)/(2w), cot t = s(1 - w^2)/(2w) and |sin t| = 2w/(1 + w^2), which gives
    the quadratics and the cost of the module docstring.  d2/dw2 of 2w/(1 + w^2) is
    -4w(3 - w^2)/(1 + w^2)^3 <= 0 on [0, 1], hence the concavity.  With the other wheel,
    sin(K + sigma t) = (A(1 - w^2) + B w)/(1 + w^2) with A = sin K, B = 2 sigma s cos K, and
    the cost's derivative times (1 + w^2)^2 is the quartic
    k w^4 + (2k - 4 rho - 2 rho s_o B) w^2 - 8 rho s_o A w + (k + 4 rho + 2 rho s_o B),
    k = -s(P_y + beta) - 2 rho.
    """
    px, py = p
    w_lo, w_hi = w_range
    k = -side * (py + beta) - 2.0 * rho
    parts = [quadratic_roots(k, -2.0 * alpha, side * (beta - py)),
             quadratic_roots(k, 2.0 * px, side * (py - beta)),
             w_lo[:, None], w_hi[:, None]]
    fractions = np.arange(1, samples + 1) / (samples + 1.0)
    parts.append(w_lo[:, None] + (w_hi - w_lo)[:, None] * fractions[None, :])
    if extra is not None:
        big_k, sigma, s_o = extra
        a_ = np.sin(big_k)
        b_ = 2.0 * sigma * side * np.cos(big_k)
        zeros = np.zeros_like(k)
        quartic = np.stack([k, zeros, 2 * k - 4 * rho - 2 * rho * s_o * b_,
                            -8 * rho * s_o * a_, k + 4 * rho + 2 * rho * s_o * b_], axis=-1)
        parts.append(quartic_roots(quartic))
    w = np.concatenate([np.broadcast_to(x, (len(k), x.shape[-1])) for x in parts], axis=-1)
    lo, hi = w_lo[:, None], w_hi[:, None]
    slack = _REL * (1.0 + hi)
    ok = (w >= lo - slack) & (w <= hi + slack) & (w > 0)
    return np.where(ok, np.clip(w, lo, hi), np.nan)


def side_range(side: float, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The allowed |t| on one side, as w = tan(|t|/2): t of sign `side` within [lo, hi]
    (radians); NaN where that side holds none."""
    if side > 0:
        a_lo, a_hi = np.maximum(lo, 0.0), hi
    else:
        a_lo, a_hi = np.maximum(-hi, 0.0), -lo
    empty = a_lo > a_hi
    return (np.where(empty, np.nan, np.tan(a_lo / 2.0)),
            np.where(empty, np.nan, np.tan(a_hi / 2.0)))


def angle_of(w: np.ndarray, side: float) -> np.ndarray:
    """The signed wheel angle t (radians) of w = tan(|t|/2) on `side`."""
    return side * 2.0 * np.arctan(w)
