"""Find installed bootcamps: folders of collection packages and single manifests, by entry point.

Entry points of group `bc.bootcamps` name either one manifest (`mine = "my_pkg:bootcamp"`: the key is its name)
or a collection package (`builtin = "bootcamps"`, no attribute): every sub-package of a collection is a bootcamp
named by its folder, exporting `bootcamp` (a manifest) — or `collection` (an object with `names()` and
`load(name)`), whose bootcamps are named `<folder>/<name>` (e.g. `rg/leg_counting`). Folders are imported only
when a bootcamp of theirs is asked for; a name claimed by two sources is an error naming both.
"""
from __future__ import annotations

import functools
import importlib
import os
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

from .classes import bootcamp_packages
from .errors import BcError, RegistryError, raised_at
from .extension_points import BOOTCAMPS_GROUP as GROUP
from .extension_points import BUILTIN_COLLECTION as BUILTIN
from .manifest import Bootcamp, Unavailable

Manifest = Bootcamp | Unavailable


@dataclass(frozen=True)
class Source:
    """Where one name comes from: a collection folder, a nested collection, or a single manifest."""

    name: str
    origin: str  # "bootcamps/arithmetic (bootcamp-harness 0.1.0)"
    load: Callable[[], Any]
    module: str = ""  # the package that holds the bootcamp, for reverse look-ups
    distribution: str = ""  # the installed distribution that provides it ("" for a source tree)


def _dist_label(ep: Any) -> str:
    dist = getattr(ep, "dist", None)
    return f"{dist.name} {dist.version}" if dist is not None else "not installed"


def _dist_name(ep: Any) -> str:
    dist = getattr(ep, "dist", None)
    return dist.name if dist is not None else ""


def _collection_sources(package: str, label: str, distribution: str = "") -> list[Source]:
    """One source per sub-package of `package` (nothing of theirs is imported)."""
    try:
        module = importlib.import_module(package)
    except ImportError as exc:
        raise RegistryError(f"bootcamp collection {package!r} ({label}) cannot be imported: {exc}") from None
    paths = getattr(module, "__path__", None)
    if paths is None:
        raise RegistryError(f"bootcamp collection {package!r} ({label}) is a module, not a package of folders")
    out = []
    for info in sorted(pkgutil.iter_modules(paths), key=lambda i: i.name):
        if not info.ispkg or info.name.startswith("_"):
            continue
        sub = f"{package}.{info.name}"
        out.append(Source(info.name, f"{package.replace('.', '/')}/{info.name} ({label})",
                          functools.partial(_load_folder, sub, info.name), sub, distribution))
    return out


def _load_folder(module_name: str, folder: str) -> Any:
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise RegistryError(f"bootcamp {folder!r} ({module_name}) failed to import: {exc}") from None
    except Exception as exc:  # a manifest that refuses itself (bad limits, a duplicate group): name its line
        what = "" if isinstance(exc, BcError) else f"bootcamp {folder!r} failed to load: {type(exc).__name__}: "
        raise RegistryError(f"{raised_at(exc, module_name)}: {what}{exc}") from None
    if hasattr(module, "collection"):
        return module.collection
    if not hasattr(module, "bootcamp"):
        raise RegistryError(f"bootcamp folder {module_name.replace('.', '/')} exports neither `bootcamp` "
                            "(a Bootcamp manifest) nor `collection`")
    return module.bootcamp


@functools.lru_cache(maxsize=1)
def sources() -> dict[str, list[Source]]:
    """Every top-level name and the sources that claim it (more than one is a conflict)."""
    found: dict[str, list[Source]] = {}
    collections: set[str] = set()
    only = {n.strip() for n in os.environ.get("BC_LOAD_ENTRY_POINTS", "").split(",") if n.strip()}
    for ep in sorted(entry_points(group=GROUP), key=lambda e: (e.name, e.value)):
        if only and ep.name not in only:
            continue
        label = f"{_dist_label(ep)}, entry point {ep.name} = {ep.value}"
        if ":" in ep.value:
            src = Source(ep.name, f"{ep.value} ({_dist_label(ep)})", ep.load, ep.value.partition(":")[0],
                         _dist_name(ep))
            found.setdefault(ep.name, []).append(src)
            continue
        if ep.value in collections:
            continue
        collections.add(ep.value)
        for src in _collection_sources(ep.value, label, _dist_name(ep)):
            found.setdefault(src.name, []).append(src)
    if BUILTIN not in collections and not only:  # a source checkout that was never installed
        try:
            for src in _collection_sources(BUILTIN, "source tree"):
                found.setdefault(src.name, []).append(src)
        except RegistryError:
            pass
    return found


def _source(name: str) -> Source:
    claims = sources().get(name)
    if not claims:
        import difflib

        known = sorted(sources())
        close = difflib.get_close_matches(name, known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise RegistryError(f"unknown bootcamp {name!r}{hint}; installed: {', '.join(known) or 'none'}")
    if len(claims) > 1:
        raise RegistryError(f"two bootcamps are named {name!r}: " + " and ".join(s.origin for s in claims))
    return claims[0]


def _checked(obj: Any, name: str, origin: str, distribution: str = "") -> Manifest:
    if callable(obj) and not isinstance(obj, (Bootcamp, Unavailable, type)):
        obj = obj()
    if not isinstance(obj, (Bootcamp, Unavailable)):
        raise RegistryError(f"{origin}: {name!r} is not a Bootcamp manifest (got {type(obj).__name__})")
    if obj.name and obj.name != name:
        raise RegistryError(f"{origin}: the manifest says name={obj.name!r} but the bootcamp is {name!r} "
                            "(the folder or entry-point name is the bootcamp's name; drop name= or make them agree)")
    obj.name = name
    obj.source = origin
    if isinstance(obj, Unavailable) and distribution:
        obj.distribution = distribution
    if isinstance(obj, Bootcamp):
        gen_name = getattr(obj.generator, "name", "") if obj.generator else ""
        if gen_name and gen_name != name:
            raise RegistryError(f"{origin}: generator {obj.generator.__qualname__}.name is {gen_name!r} but the "
                                f"bootcamp is {name!r} (drop the generator's name or make them agree)")
    return obj


@functools.cache
def load(name: str) -> Manifest:
    """The manifest of `name` (`arithmetic`, `bootcamp/arithmetic`, `rg/leg_counting`), available or not."""
    key = name.split("/", 1)[1] if name.startswith("bootcamp/") else name
    head, sep, rest = key.partition("/")
    src = _source(head if sep else key)
    obj = src.load()
    if sep:
        if isinstance(obj, Unavailable):  # a collection whose extra is missing: each of its bootcamps is too
            raise RegistryError(f"bootcamp {key!r} is unavailable: it {obj.reason}")
        if not hasattr(obj, "load"):
            raise RegistryError(f"{src.origin}: {head!r} is a bootcamp, not a collection; unknown bootcamp {key!r}")
        try:
            inner = obj.load(rest)
        except RegistryError:
            raise
        except KeyError:
            raise RegistryError(f"unknown bootcamp {key!r} in collection {head!r} ({src.origin})") from None
        return _checked(inner, key, f"{src.origin}: {rest}", src.distribution)
    if hasattr(obj, "load") and hasattr(obj, "names"):
        raise RegistryError(f"{key!r} is a collection ({src.origin}): name one of its bootcamps, e.g. "
                            f"{key}/{next(iter(obj.names()), 'NAME')}")
    return _checked(obj, key, src.origin, src.distribution)


def get_bootcamp(name: str) -> Bootcamp:
    """The manifest of an available bootcamp; an unavailable one is a RegistryError with its install hint."""
    manifest = load(name)
    if isinstance(manifest, Unavailable):
        raise manifest.error()
    return manifest


def available(include_unavailable: bool = False) -> list[str]:
    """Names of the installed bootcamps (nested collections expanded), sorted."""
    names = []
    for name, claims in sources().items():
        obj = claims[0].load() if len(claims) == 1 else None
        if obj is not None and hasattr(obj, "names") and hasattr(obj, "load"):
            names.extend(f"{name}/{n}" for n in obj.names())
        else:
            names.append(name)
    names = sorted(names)
    if include_unavailable:
        return names
    out = []
    for n in names:
        try:
            if load(n).available:
                out.append(n)
        except RegistryError:
            continue
    return out


def name_of_module(module: str) -> str | None:
    """The bootcamp whose package holds `module` (`bootcamps.arithmetic.generator` -> `arithmetic`)."""
    for name, claims in sources().items():
        for src in claims:
            if src.module and (module == src.module or module.startswith(src.module + ".")):
                return name
    return None


def clear_cache() -> None:
    """Forget discovered bootcamps (tests that install or create bootcamps at run time)."""
    sources.cache_clear()
    load.cache_clear()
    bootcamp_packages.cache_clear()
