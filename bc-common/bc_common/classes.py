"""Classes named by dotted path in configs and registries, checked before anything is imported.

    load_class("bootcamps.arithmetic.tools.CalculatorTool", Tool)   # the class
    load_class("this.Foo")   # RegistryError: `this` is no bootcamp's package; nothing was imported

A config may name classes of a bootcamp's package (the built-in `bootcamps`, any `bc.bootcamps` entry point's
package, `bc_common`), code outside the Python installation (the working tree, PYTHONPATH: a seed clone's own
package), a module already imported, or a package listed in `BC_CLASS_PACKAGES`. Anything else — the standard
library, other installed packages — is refused by name, before its import could run code.
"""
from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from .errors import RegistryError
from .extension_points import BOOTCAMPS_GROUP, BUILTIN_COLLECTION, CLASS_PACKAGES_ENV


def dotted_name(cls: type) -> str:
    """`package.module.Class` of a class (what configs name)."""
    return f"{cls.__module__}.{cls.__qualname__}"


def split_dotted(dotted: Any) -> tuple[str, str]:
    """(module, attribute path) of `package.module.Name` or `package.module:Name`; RegistryError otherwise."""
    if not isinstance(dotted, str) or not dotted.strip():
        raise RegistryError(f"expected a dotted class path, got {dotted!r}")
    module_name, sep, attr = dotted.partition(":")
    if not sep:
        module_name, _, attr = dotted.rpartition(".")
    if not module_name or not attr or not all(p.isidentifier() for p in [*module_name.split("."), *attr.split(".")]):
        raise RegistryError(f"{dotted!r} is not a dotted path like package.module.Class")
    return module_name, attr


@functools.lru_cache(maxsize=1)
def bootcamp_packages() -> frozenset[str]:
    """Top-level packages that hold bootcamps: the built-in collection, `bc_common`, every entry point's."""
    roots = {BUILTIN_COLLECTION, "bc_common"}
    for ep in entry_points(group=BOOTCAMPS_GROUP):
        roots.add(ep.value.partition(":")[0].split(".")[0].strip())
    return frozenset(roots)


def _allowed_packages() -> set[str]:
    listed = {p.strip() for p in os.environ.get(CLASS_PACKAGES_ENV, "").split(",") if p.strip()}
    return set(bootcamp_packages()) | listed


def _user_dirs() -> list[Path]:
    """Where user code lives: the working directory and the PYTHONPATH entries."""
    entries = [os.getcwd(), *os.environ.get("PYTHONPATH", "").split(os.pathsep)]
    return [Path(e).resolve() for e in entries if e]


def _installation_dirs() -> list[Path]:
    return [Path(p).resolve() for p in {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}]


def _inside(path: Path, folders: list[Path]) -> bool:
    return any(path == f or f in path.parents for f in folders)


def _is_user_code(top: str) -> bool:
    """True when the top-level module `top` is a file of the user's (not the standard library, not an installed
    package). Only finds it: `find_spec` of a top-level name runs none of its code."""
    if top in sys.stdlib_module_names or top in sys.builtin_module_names:
        return False
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return False
    if spec is None:
        return False
    places = [spec.origin] if spec.origin and spec.has_location else list(spec.submodule_search_locations or [])
    paths = [Path(p).resolve() for p in places]
    return bool(paths) and all(_inside(p, _user_dirs()) and not _inside(p, _installation_dirs()) for p in paths)


def check_importable(dotted: str) -> tuple[str, str]:
    """(module, attribute path) of `dotted` when the policy above lets it be imported; RegistryError naming it
    otherwise. Imports nothing."""
    module_name, attr = split_dotted(dotted)
    top = module_name.split(".")[0]
    if module_name in sys.modules or top in _allowed_packages() or _is_user_code(top):
        return module_name, attr
    raise RegistryError(
        f"{dotted!r}: {top!r} is not a bootcamp's package nor code in the working directory or on PYTHONPATH, "
        f"so it was not imported (to allow an installed package: {CLASS_PACKAGES_ENV}={top})")


def load_class(dotted: str, base: type | None = None) -> Any:
    """Import `package.module.Name` (or `package.module:Name`) once `check_importable` allows it; with `base`,
    refuse anything that is not a subclass of it (a config naming `builtins.print` is a RegistryError)."""
    module_name, attr = check_importable(dotted)
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise RegistryError(f"cannot import {module_name!r} (for {dotted!r}): {exc}") from None
    try:
        obj = module
        for part in attr.split("."):
            obj = getattr(obj, part)
    except AttributeError:
        raise RegistryError(f"module {module_name!r} has no {attr!r}") from None
    if base is not None and not (isinstance(obj, type) and issubclass(obj, base)):
        what = f"class {obj.__module__}.{obj.__qualname__}" if isinstance(obj, type) else type(obj).__name__
        raise RegistryError(f"{dotted!r} must name a subclass of {_public_name(base)} (it is a {what})")
    return obj


def _public_name(cls: type) -> str:
    """Where authors import `cls` from: `bc_common.bootcamp` re-exports every base class of the contract."""
    contract = sys.modules.get("bc_common.bootcamp")
    if getattr(contract, cls.__name__, None) is cls:
        return f"bc_common.bootcamp.{cls.__name__}"
    return dotted_name(cls)
