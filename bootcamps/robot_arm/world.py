"""MuJoCo's kinematics and collision detection over one compiled scene, and the dense path check.

A configuration collides when any pair of geoms (link-obstacle, link-floor, or two links that are not parent
and child) comes closer than the task's margin m (MuJoCo reports such a pair as a contact). A path is
checked at samples so dense that no point of the arm moves more than m/2 between two of them, so a path that
passes keeps at least m/2 of true clearance everywhere in between and cannot tunnel through a thin obstacle.
"""
from __future__ import annotations

import functools
import math
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import mujoco
import numpy as np
import orjson

from .scene import joint_names, link_names, mjcf, reach_radii

MAX_WAYPOINTS = 32


@dataclass(frozen=True)
class Contact:
    """Two geoms closer than the margin; `distance` is their surface distance (negative: penetration)."""

    pair: tuple[str, str]
    distance: float
    point: tuple[float, float, float]

    def as_dict(self) -> dict[str, Any]:
        return {"between": list(self.pair), "distance": round(self.distance, 4) + 0.0,
                "point": [round(v, 4) + 0.0 for v in self.point]}  # + 0.0: never "-0.0"


@dataclass
class PathReport:
    """What a dense replay of a path found: the first collision, every pair touched, limits, end error."""

    samples: int = 0
    first: dict[str, Any] | None = None  # {"segment", "fraction", "q", "contacts"}
    touched: dict[tuple[str, str], int] = field(default_factory=dict)  # pair -> first segment touching it
    limit_violations: list[dict[str, Any]] = field(default_factory=list)
    end_effector: list[float] | None = None
    distance_to_target: float | None = None
    on_target: bool = False

    @property
    def valid(self) -> bool:
        return self.first is None and not self.limit_violations and self.on_target


class World:
    """One scene: FK, collision pairs, and dense path checks. One MjData: use it from one thread."""

    def __init__(self, identity: dict[str, Any], obstacles: list[dict[str, Any]] | None = None):
        self.identity = identity
        self.model = mujoco.MjModel.from_xml_string(mjcf(identity, obstacles))
        self.data = mujoco.MjData(self.model)
        self.n = self.model.nq
        self.limits = np.array(identity["limits"], dtype=float)
        self.reach = np.array(reach_radii(identity), dtype=float)
        self.margin = float(identity["margin"])
        self.target = np.array(identity["target"], dtype=float)
        self.tolerance = float(identity["tolerance"])
        self.site = mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_SITE, "end_effector")
        self.geom_names = [self.model.geom(i).name for i in range(self.model.ngeom)]
        self.joint_names = joint_names(identity)
        self.link_names = link_names(identity)
        self._jac = np.zeros((3, self.n))
        # pairs read link first (in chain order), then the floor or the obstacle
        order = self.link_names + sorted(set(self.geom_names) - set(self.link_names))
        self._rank = {name: i for i, name in enumerate(order)}

    # -- one configuration -------------------------------------------------------------------------
    def _pose(self, q: np.ndarray) -> None:
        self.data.qpos[:] = q
        mujoco.mj_kinematics(self.model, self.data)

    def end_effector(self, q: np.ndarray) -> np.ndarray:
        self._pose(q)
        return self.data.site_xpos[self.site].copy()

    def joint_positions(self, q: np.ndarray) -> list[list[float]]:
        """World positions of every joint anchor at q."""
        self._pose(q)
        return [self.data.xanchor[i].tolist() for i in range(self.n)]

    def collides(self, q: np.ndarray) -> bool:
        self._pose(q)
        mujoco.mj_collision(self.model, self.data)
        return self.data.ncon > 0

    def contacts(self, q: np.ndarray) -> list[Contact]:
        """Every colliding pair at q (closest contact per pair), sorted by name."""
        self._pose(q)
        mujoco.mj_collision(self.model, self.data)
        return self._current_contacts()

    def _current_contacts(self) -> list[Contact]:
        found, n = self.data.contact, self.data.ncon
        geoms, dists, points = found.geom[:n], found.dist[:n], found.pos[:n]
        best: dict[tuple[str, str], Contact] = {}
        for (g1, g2), dist, point in zip(geoms.tolist(), dists.tolist(), points.tolist(), strict=True):
            pair = tuple(sorted((self.geom_names[g1], self.geom_names[g2]), key=self._rank.__getitem__))
            if pair not in best or dist < best[pair].distance:
                best[pair] = Contact(pair, dist, tuple(point))
        return [best[p] for p in sorted(best)]

    def jacobian(self, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(end-effector position, 3 x n positional Jacobian) at q."""
        self._pose(q)
        mujoco.mj_comPos(self.model, self.data)
        mujoco.mj_jacSite(self.model, self.data, self._jac, None, self.site)
        return self.data.site_xpos[self.site].copy(), self._jac.copy()

    def limit_violations(self, q: np.ndarray, index: int | None = None) -> list[dict[str, Any]]:
        out = []
        for j, (value, (lo, hi)) in enumerate(zip(q, self.limits, strict=True)):
            if not lo <= value <= hi:
                entry = {"joint": self.joint_names[j], "value": float(value), "range": [float(lo), float(hi)]}
                out.append(entry if index is None else {"waypoint": index, **entry})
        return out

    # -- paths ---------------------------------------------------------------------------------------
    def steps(self, qa: np.ndarray, qb: np.ndarray) -> int:
        """Samples for the straight segment qa -> qb: no arm point moves more than margin/2 per sample."""
        sweep = float(np.dot(np.abs(qb - qa), self.reach))
        return max(1, math.ceil(sweep / (self.margin / 2)))

    def segment_samples(self, qa: np.ndarray, qb: np.ndarray, *, coarse_first: bool = False) -> np.ndarray:
        """The samples after qa up to and including qb: qa + k (qb - qa) / n for k = 1..n, in that order or
        coarse-to-fine (the same points either way)."""
        n = self.steps(qa, qb)
        ks = _coarse_to_fine(n) if coarse_first else np.arange(1, n + 1, dtype=float)
        return qa + np.outer(ks, (qb - qa) / n)

    def first_colliding(self, qs: np.ndarray) -> int:
        """Index of the first colliding configuration of `qs`, or -1 (the hot loop: kept flat)."""
        model, data, qpos = self.model, self.data, self.data.qpos
        kinematics, collision = mujoco.mj_kinematics, mujoco.mj_collision
        for i, q in enumerate(qs):
            qpos[:] = q
            kinematics(model, data)
            collision(model, data)
            if data.ncon:
                return i
        return -1

    def segment_free(self, qa: np.ndarray, qb: np.ndarray) -> bool:
        """True when every sample after qa up to and including qb is collision-free (the samples of
        `check_path`, visited coarse-to-fine so that a blocked segment is usually rejected early)."""
        return self.first_colliding(self.segment_samples(qa, qb, coarse_first=True)) < 0

    def samples(self, path: list[np.ndarray]) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
        """(segment, fractions, configurations) for the start and then each segment's samples, in order."""
        yield 0, np.zeros(1), np.asarray(path[0], dtype=float)[None, :]
        for seg in range(len(path) - 1):
            qs = self.segment_samples(path[seg], path[seg + 1])
            yield seg, np.arange(1, len(qs) + 1) / len(qs), qs

    def check_path(self, path: list[np.ndarray], *, all_contacts: bool = True) -> PathReport:
        """Replay `path` (the first entry is the start) densely. `all_contacts=False` stops at the first
        collision (a verifier); otherwise every pair touched anywhere is recorded (what a tool reports)."""
        report = PathReport()
        for i, q in enumerate(path):
            report.limit_violations += self.limit_violations(q, index=i)
        end = self.end_effector(path[-1])
        report.end_effector = end.tolist()
        report.distance_to_target = float(np.linalg.norm(end - self.target))
        report.on_target = report.distance_to_target <= self.tolerance
        if report.limit_violations:
            return report  # interpolating far outside the limits could cost any number of samples
        for segment, fractions, qs in self.samples(path):
            report.samples += len(qs)
            start = 0
            while (hit := self.first_colliding(qs[start:])) >= 0:
                i = start + hit
                found = self._current_contacts()
                for c in found:
                    report.touched.setdefault(c.pair, segment)
                if report.first is None:
                    report.first = {"segment": segment, "fraction": round(float(fractions[i]), 4),
                                    "q": [round(float(v), 4) + 0.0 for v in qs[i]],
                                    "contacts": [c.as_dict() for c in found]}
                    if not all_contacts:
                        return report
                start = i + 1
        return report


@functools.lru_cache(maxsize=4096)
def _coarse_to_fine(n: int) -> np.ndarray:
    """1..n ordered end first, then midpoints of ever finer halvings (as floats; read-only)."""
    order, seen, stride = [n], {n}, n
    while stride > 1:
        stride = (stride + 1) // 2
        for k in range(stride, n, stride):
            if k not in seen:
                seen.add(k)
                order.append(k)
    order += [k for k in range(1, n) if k not in seen]
    out = np.array(order, dtype=float)
    out.flags.writeable = False
    return out


def scene_key(identity: dict[str, Any], obstacles: list[dict[str, Any]] | None = None) -> str:
    """A canonical text of what a compiled world depends on (the LRU cache key)."""
    scene = {k: identity[k] for k in ("arm", "links", "limits", "margin", "target", "tolerance")}
    scene["obstacles"] = identity["obstacles"] if obstacles is None else obstacles
    return orjson.dumps(scene, option=orjson.OPT_SORT_KEYS).decode()


_local = threading.local()  # one cache per thread: a World holds one MjData, which threads must not share
CACHE_SIZE = 128


def world_for(identity: dict[str, Any], obstacles: list[dict[str, Any]] | None = None) -> World:
    """The compiled world of an identity (optionally with only the given obstacles), cached per thread in an LRU
    of `CACHE_SIZE` scenes."""
    cache: OrderedDict[str, World] | None = getattr(_local, "worlds", None)
    if cache is None:
        cache = _local.worlds = OrderedDict()
    key = scene_key(identity, obstacles)
    world = cache.get(key)
    if world is None:
        scene = orjson.loads(key)
        world = cache[key] = World(scene, scene["obstacles"])
        if len(cache) > CACHE_SIZE:
            cache.popitem(last=False)
    else:
        cache.move_to_end(key)
    return world
