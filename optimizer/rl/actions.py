"""The flat action lattice of one unit's manoeuvre: option x facing bin x end-centre cell.

An action is one integer `a` in `range(n)`, read as

    a = ((variant * facing_bins + facing) * ny + j) * nx + i

- `variant`: the way's own discrete choice other than the end facing, in sorted order: an
  Advance's Pivot (in steps of `facing_step_deg`; its wheel in steps of `wheel_step_deg`), a
  Reform's end files; a March has one;
- `facing`: the end facing relative to the start facing, in (-180, 180] in steps of
  `facing_step_deg` (sorted, from the most clockwise turn the manoeuvre allows to the most
  anti-clockwise);
- `(i, j)`: the end centre, in the unit's start frame (x to its right, y ahead), at
  `offset + ((i - (nx - 1) / 2) * cell_in, (j - (ny - 1) / 2) * cell_in)` inches.

The ways come from the public legal-move view (`optimizer.legal_moves` on the lattice
`Lattice(inch=cell_in, degree=facing_step_deg, advance_wheel_deg=wheel_step_deg)`): each of
the view's options is one (variant, facing) pair, or several where the rules reach one end facing
by several ways (a whfb7 turn on the spot, then a wheel).  The mask is the view's batch mask
(sound: True implies the exact checker finds the move legal) of every cell for every option;
an action's move is the move of the first of its options, in the view's order, that the mask
passes at that cell (written by the view's family, as `legal_moves` yields moves).  A False
action may still be a legal move (the mask is conservative near obstacles, and a view holds
ways of one wheel): `benchmarks/bench_rl.py` measures how many.

This module is the one place the RL package reads the view's options, family and judge.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from constraints.core.jsonread import number, whole
from constraints.errors import InvalidInputError
from optimizer import Lattice, Scenario, legal_moves

MAX_CELLS = 512  # per side: a flat Discrete of a few million actions at most


@dataclass(frozen=True)
class LatticeSpec:
    """The sizes of an action lattice, chosen by the user."""

    cells: tuple[int, int] = (17, 17)
    cell_in: float = 1.0
    facing_step_deg: float = 15.0
    wheel_step_deg: float = 15.0
    offset_in: tuple[float, float] = (0.0, 0.0)

    def __post_init__(self) -> None:
        if not (isinstance(self.cells, tuple | list) and len(self.cells) == 2):
            raise InvalidInputError("expected two cell counts (nx, ny)", path="cells")
        nx, ny = (whole(c, f"cells[{k}]", minimum=1, maximum=MAX_CELLS)
                  for k, c in enumerate(self.cells))
        object.__setattr__(self, "cells", (nx, ny))
        object.__setattr__(self, "cell_in", number(self.cell_in, "cell_in", positive=True))
        if not (isinstance(self.offset_in, tuple | list) and len(self.offset_in) == 2):
            raise InvalidInputError("expected an offset (x, y)", path="offset_in")
        object.__setattr__(self, "offset_in", tuple(number(v, f"offset_in[{k}]")
                                                    for k, v in enumerate(self.offset_in)))
        _ = self.lattice  # the steps' ranges: InvalidInputError naming the Lattice's field

    @property
    def lattice(self) -> Lattice:
        return Lattice(inch=self.cell_in, degree=self.facing_step_deg,
                       advance_wheel_deg=self.wheel_step_deg)


def _relative(facing_deg: float, start_deg: float) -> float:
    """The turn from the start facing, in (-180, 180], rounded off float noise."""
    turn = (facing_deg - start_deg + 180.0) % 360.0 - 180.0
    turn = 180.0 if turn <= -180.0 + 1e-9 else turn
    return round(turn, 6)


class ActionLattice:
    """The actions of one unit's manoeuvre in a scenario, their mask and their moves."""

    def __init__(self, scenario: Scenario, unit_id: str, manoeuvre: str,
                 spec: LatticeSpec | None = None) -> None:
        self.spec = spec or LatticeSpec()
        self.scenario, self.unit_id, self.manoeuvre = scenario, unit_id, manoeuvre
        self.view = legal_moves(scenario, unit_id, manoeuvre, self.spec.lattice)
        start = scenario.unit(unit_id).pose.facing_deg
        options = list(self.view.options)
        self.variants: list[tuple[float, int]] = sorted(
            {(round(o.pivot_deg, 6), o.files) for o in options})
        self.facings: list[float] = sorted({_relative(o.facing_deg, start) for o in options})
        # ways[(variant, facing)]: the view's options of that pair, in the view's order
        self.ways: dict[tuple[int, int], list[Any]] = {}
        for option in options:
            key = (self.variants.index((round(option.pivot_deg, 6), option.files)),
                   self.facings.index(_relative(option.facing_deg, start)))
            self.ways.setdefault(key, []).append(option)
        nx, ny = self.spec.cells
        i, j = np.meshgrid(np.arange(nx), np.arange(ny), indexing="xy")
        step, (ox, oy) = self.spec.cell_in, self.spec.offset_in
        # Cell k = j * nx + i, its centre in the start frame and in the world.
        self.frame_centres = np.stack([ox + (i.ravel() - (nx - 1) / 2) * step,
                                       oy + (j.ravel() - (ny - 1) / 2) * step], axis=1)
        self.world_centres = self.view.frame.world_array(self.frame_centres)
        self._chosen: np.ndarray | None = None

    @property
    def cells(self) -> int:
        return self.spec.cells[0] * self.spec.cells[1]

    @property
    def shape(self) -> tuple[int, int, int]:
        """(variants, facing bins, cells)."""
        return len(self.variants), len(self.facings), self.cells

    @property
    def n(self) -> int:
        variants, facings, cells = self.shape
        return variants * facings * cells

    def decode(self, action: int) -> tuple[int, int, int]:
        """(variant, facing bin, cell) of an action."""
        variants, facings, cells = self.shape
        if not 0 <= int(action) < self.n:
            raise InvalidInputError(f"expected an action from 0 to {self.n - 1}", path="action")
        rest, cell = divmod(int(action), cells)
        variant, facing = divmod(rest, facings)
        return variant, facing, cell

    def describe(self, action: int) -> dict[str, Any]:
        """What an action means: Pivot, files, turn and end centre (start frame and world)."""
        variant, facing, cell = self.decode(action)
        pivot, files = self.variants[variant]
        return {"pivot_deg": pivot, "files": files, "turn_deg": self.facings[facing],
                "frame_centre": tuple(map(float, self.frame_centres[cell])),
                "centre": tuple(map(float, self.world_centres[cell]))}

    def mask(self) -> np.ndarray:
        """Whether each action is legal by the batch mask (computed once per lattice)."""
        return self.chosen() >= 0

    def chosen(self) -> np.ndarray:
        """Per action, the index in the view's options of the option whose move it makes,
        or -1 where the mask passes none."""
        if self._chosen is None:
            self._chosen = self._choose()
        return self._chosen

    def _choose(self) -> np.ndarray:
        variants, facings, cells = self.shape
        chosen = np.full((variants, facings, cells), -1, dtype=np.int64)
        view = self.view
        index = {id(o): k for k, o in enumerate(view.options)}
        none = np.zeros(cells, dtype=int)
        for (variant, facing), options in self.ways.items():
            free = chosen[variant, facing]  # a view: filled in place
            for option in options:
                if not view.judge.way_passes(option.facing_deg, option.pivot_deg,
                                             option.files):
                    continue  # no end centre of this way can be legal
                todo = free < 0
                if not todo.any():
                    break
                ok = np.zeros(cells, dtype=bool)
                ok[todo] = view.family.mask(view.judge, self.world_centres[todo], [option],
                                            none[todo])
                free[ok] = index[id(option)]
        return chosen.reshape(-1)

    def move(self, action: int) -> Any:
        """The move an action stands for: its chosen option's, ending at the cell's centre;
        where the mask passes none, its first option's move toward the cell (the mask does
        not vouch for it, and it may not end there: see `reaches`); None where the lattice
        has no way of that variant and facing."""
        variant, facing, cell = self.decode(action)
        picked = int(self.chosen()[action])
        if picked >= 0:
            option = self.view.options[picked]
        else:
            options = self.ways.get((variant, facing))
            if not options:
                return None
            option = options[0]
        centre = self.frame_centres[cell]
        return self.view.family.move(self.unit_id, self.view.frame, option,
                                     (float(centre[0]), float(centre[1])))

    def reaches(self, action: int, verdict: Any) -> bool:
        """Whether a judged move ends where the action says: at its cell's centre, with its
        turn and files (to 1e-6)."""
        variant, facing, cell = self.decode(action)
        start = self.scenario.unit(self.unit_id).pose.facing_deg
        turn = _relative(verdict.end_facing_deg, start)
        return bool(np.abs(np.subtract(verdict.end_centre, self.world_centres[cell])).max()
                    < 1e-6 and abs(turn - self.facings[facing]) < 1e-6
                    and verdict.end_files == self.variants[variant][1])

    def action_of(self, variant: int, facing: int, cell: int) -> int:
        variants, facings, cells = self.shape
        return (variant * facings + facing) * cells + cell

    def stand_still(self) -> int | None:
        """The action leaving the unit where it stands (no Pivot, its own files, no turn, the
        cell at the start centre), where the lattice holds it."""
        unit = self.scenario.unit(self.unit_id)
        near = np.flatnonzero(np.abs(self.frame_centres).max(axis=1) < 1e-9)
        if (0.0, unit.files) not in self.variants or 0.0 not in self.facings or not len(near):
            return None
        return self.action_of(self.variants.index((0.0, unit.files)), self.facings.index(0.0),
                              int(near[0]))
