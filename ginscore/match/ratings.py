"""Ratings: Glicko-2 exactly as Glickman's "Example of the Glicko-2 system" (2012) sets it out, and the honesty
figures beside it (a head-to-head share's interval, a walk-forward test of the ratings' predictions).

Pure arithmetic: no file, no clock. The words:

- a **rating period** is one batch of results treated as played at once; the standings make it one calendar day;
- `r` and `RD` are the rating and its deviation on the familiar scale (a new player is 1500 and 350), `mu` and
  `phi` the same on the Glicko-2 scale (`(r - 1500) / 173.7178`, `RD / 173.7178`), `sigma` the volatility;
- **provisional**: an RD of 110 or more, as Lichess marks it; the rating says little yet.

The steps are the paper's, numbered as it numbers them, with its constants: start at 1500, RD 350, volatility
0.06, the system constant tau 0.5, and the volatility found by the Illinois iteration to epsilon 1e-6.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

START_RATING = 1500.0
START_RD = 350.0
START_VOLATILITY = 0.06
TAU = 0.5
"""The system constant: how much the volatility may change in a period (the paper suggests 0.3 to 1.2)."""
EPSILON = 1e-6
"""The Illinois iteration stops when its bracket is this narrow (the paper's convergence tolerance)."""
SCALE = 173.7178
"""The paper's factor between the Glicko scale and the Glicko-2 scale."""
PROVISIONAL_RD = 110.0
"""A rating whose RD is this or more is provisional (Lichess's mark)."""


@dataclass(frozen=True)
class Rating:
    """A player's rating as it stands after a rating period."""

    rating: float = START_RATING
    """r, on the familiar scale."""
    rd: float = START_RD
    """The rating's deviation: the player's strength is within r ± 2 RD at about 95%."""
    volatility: float = START_VOLATILITY
    """sigma: how erratic the player's results have been."""

    @property
    def mu(self) -> float:
        return (self.rating - START_RATING) / SCALE

    @property
    def phi(self) -> float:
        return self.rd / SCALE

    @property
    def provisional(self) -> bool:
        """Whether the rating is still provisional: RD of 110 or more."""
        return self.rd >= PROVISIONAL_RD

    @classmethod
    def from_glicko2(cls, mu: float, phi: float, sigma: float) -> Rating:
        """Step 8: back from the Glicko-2 scale."""
        return cls(SCALE * mu + START_RATING, SCALE * phi, sigma)


def g(phi: float) -> float:
    """Glickman's g(phi): how much an opponent's uncertainty weakens what a result against them says."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    """E(mu, mu_j, phi_j): the expected score against opponent j, on the Glicko-2 scale (step 3)."""
    return 1.0 / (1.0 + math.exp(-g(phi_j) * (mu - mu_j)))


def expected_score(a: Rating, b: Rating) -> float:
    """The expected score of `a` against `b` with both uncertainties counted:
    1 / (1 + 10^(-g(sqrt(RD_a² + RD_b²)) · (r_a - r_b) / 400)), g on the familiar scale (the same number as
    `expected` with the two phis combined)."""
    q = math.log(10) / 400.0
    combined = math.sqrt(a.rd * a.rd + b.rd * b.rd)
    g_rd = 1.0 / math.sqrt(1.0 + 3.0 * q * q * combined * combined / (math.pi * math.pi))
    return 1.0 / (1.0 + 10.0 ** (-g_rd * (a.rating - b.rating) / 400.0))


def rate(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one rating period, from their rating before it and each result of the period:
    the opponent's rating before the period and the score (1 for a win, 0 for a loss). With no result, only the
    RD grows (the paper's step 6 alone)."""
    mu, phi, sigma = player.mu, player.phi, player.volatility
    if not results:
        return Rating.from_glicko2(mu, math.sqrt(phi * phi + sigma * sigma), sigma)
    # Step 3: the estimated variance v of the rating from the results alone.
    weights = [(g(opponent.phi), expected(mu, opponent.mu, opponent.phi), score) for opponent, score in results]
    v = 1.0 / sum(g_j * g_j * e_j * (1.0 - e_j) for g_j, e_j, _ in weights)
    # Step 4: the estimated improvement delta.
    gained = sum(g_j * (score - e_j) for g_j, e_j, score in weights)
    delta = v * gained
    # Step 5: the new volatility.
    sigma_new = volatility(delta, phi, v, sigma, tau)
    # Step 6: the pre-period RD.
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    # Step 7: the new RD and rating.
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * gained
    return Rating.from_glicko2(mu_new, phi_new, sigma_new)


def volatility(delta: float, phi: float, v: float, sigma: float, tau: float = TAU, epsilon: float = EPSILON) -> float:
    """Step 5: sigma', the root of the paper's f(x) found by its Illinois iteration (a regula falsi that halves
    the kept side's value when the same side is kept twice)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > epsilon:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


@dataclass(frozen=True)
class Result:
    """One game between two players, as the ratings see it: who won, on which rating period."""

    period: str
    """The rating period, as text that sorts in time order (the standings use the ISO date)."""
    winner: str
    loser: str
    first: str
    """The player the prediction is stated for: one of the two, chosen without looking at the result."""


@dataclass(frozen=True)
class Predicted:
    """One game predicted from the ratings as they stood before its period."""

    result: Result
    chance: float
    """The chance the ratings gave `result.first` to win."""

    @property
    def outcome(self) -> float:
        """1 when `first` won, else 0."""
        return 1.0 if self.result.winner == self.result.first else 0.0


@dataclass(frozen=True)
class Walk:
    """The ratings walked forward period by period over a list of results."""

    ratings: dict[str, Rating]
    """Each player's rating after the last period."""
    history: dict[str, tuple[tuple[str, Rating], ...]]
    """Each player's rating after every period they played in, oldest first."""
    predicted: tuple[Predicted, ...]
    """Every game, predicted before its own period was rated."""


def walk(results: Iterable[Result], tau: float = TAU) -> Walk:
    """Rate `results` period by period, oldest first: a player appears with the starting rating in their first
    period; in every later period with no game for them only their RD grows (step 6). Each game is predicted from
    the ratings as they stood before its period, so no game's own result, nor a later one, goes into its
    prediction."""
    by_period: dict[str, list[Result]] = {}
    for result in results:
        by_period.setdefault(result.period, []).append(result)
    ratings: dict[str, Rating] = {}
    history: dict[str, list[tuple[str, Rating]]] = {}
    predicted: list[Predicted] = []
    for period in sorted(by_period):
        games = by_period[period]
        before = dict(ratings)
        for game in games:
            for name in (game.winner, game.loser):
                before.setdefault(name, Rating())
        played: dict[str, list[tuple[Rating, float]]] = {name: [] for name in before}
        for game in games:
            other = game.loser if game.first == game.winner else game.winner
            predicted.append(Predicted(game, expected_score(before[game.first], before[other])))
            played[game.winner].append((before[game.loser], 1.0))
            played[game.loser].append((before[game.winner], 0.0))
        ratings = {name: rate(before[name], played[name], tau) for name in before}
        for name, rated in played.items():
            if rated:
                history.setdefault(name, []).append((period, ratings[name]))
    return Walk(ratings, {name: tuple(points) for name, points in history.items()}, tuple(predicted))


@dataclass(frozen=True)
class Prediction:
    """How well the ratings predicted the games, each from the ratings of the day before (walk forward)."""

    games: int
    log_loss: float | None
    """The mean of -ln(the chance given to what happened); None with no game."""
    brier: float | None
    """The mean squared gap between the chance and what happened (1 or 0); None with no game."""
    called: float | None
    """The share of games whose favourite won; a game called even counts a half, as a coin would."""
    coin_log_loss: float = math.log(2)
    coin_brier: float = 0.25

    def as_json(self) -> dict:
        return {
            "games": self.games,
            "log_loss": _rounded(self.log_loss),
            "brier": _rounded(self.brier),
            "called": _rounded(self.called),
            "coin_flip": {"log_loss": round(self.coin_log_loss, 4), "brier": self.coin_brier, "called": 0.5},
        }


def prediction(predicted: Sequence[Predicted]) -> Prediction:
    """The log-loss, Brier score and share called right of `predicted`, beside a coin flip's."""
    if not predicted:
        return Prediction(0, None, None, None)
    smallest = 1e-15  # a chance is never exactly 0 or 1 here, but a log must not see one
    log_loss = brier = called = 0.0
    for game in predicted:
        p, y = game.chance, game.outcome
        told = p if y == 1.0 else 1.0 - p
        log_loss -= math.log(max(told, smallest))
        brier += (p - y) ** 2
        called += 0.5 if p == 0.5 else float((p > 0.5) == (y == 1.0))
    n = len(predicted)
    return Prediction(n, log_loss / n, brier / n, called / n)


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def beta_quantile(q: float, a: int, b: int) -> float:
    """The q-quantile of Beta(a, b) for whole a, b ≥ 1, by bisection on its CDF (which for whole parameters is a
    binomial tail: P(X ≤ x) = P(Binomial(a + b - 1, x) ≥ a))."""
    if not (0.0 <= q <= 1.0) or a < 1 or b < 1:
        raise ValueError(f"beta_quantile needs 0 ≤ q ≤ 1 and whole a, b ≥ 1, not q={q!r}, a={a!r}, b={b!r}")
    low, high = 0.0, 1.0
    for _ in range(200):
        middle = (low + high) / 2.0
        if middle in (low, high):
            break
        if beta_cdf(middle, a, b) < q:
            low = middle
        else:
            high = middle
    return (low + high) / 2.0


def beta_cdf(x: float, a: int, b: int) -> float:
    """P(X ≤ x) for X ~ Beta(a, b), whole a, b ≥ 1: the chance of at least a successes in a + b - 1 trials."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    n = a + b - 1
    log_x, log_1x = math.log(x), math.log1p(-x)
    log_n = math.lgamma(n + 1)
    return min(1.0, sum(math.exp(log_n - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * log_x + (n - k) * log_1x) for k in range(a, n + 1)))


@dataclass(frozen=True)
class Share:
    """A head-to-head record as a share of games won, with its 95% interval."""

    wins: int
    losses: int

    @property
    def share(self) -> float | None:
        """Wins over games; None before any game."""
        games = self.wins + self.losses
        return self.wins / games if games else None

    @property
    def interval(self) -> tuple[float, float]:
        """The 2.5% and 97.5% quantiles of Beta(wins + 1, losses + 1): (0.025, 0.975) before any game."""
        return beta_quantile(0.025, self.wins + 1, self.losses + 1), beta_quantile(0.975, self.wins + 1, self.losses + 1)

    def as_json(self) -> dict:
        low, high = self.interval
        return {"wins": self.wins, "losses": self.losses, "share": _rounded(self.share), "interval": [round(low, 4), round(high, 4)]}
