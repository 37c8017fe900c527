"""The rules the house keeps, read from the source with `ast` (nothing is imported):

- no tool imports another tool (nor a bootcamp: tools find bootcamps through bc_common's catalog);
- bc_common imports no tool and no bootcamp;
- bootcamps import only the author API of bc_common (AUTHOR_API, the first area of the map);
- bc_common has no import cycle, and no tool has one among its own modules (a tool's parts, such as the
  bc-toolserve master's admission, routing and status pages, never reach back into the module that wires them).
  Every import counts, module-level or inside a function: a function-local import
  runs as soon as the function is called, so a cycle through one is still a cycle, only hidden from the import
  system. Imports under `if TYPE_CHECKING:` never run and do not count;
- verl is imported only by bc-train's adapters (VERL_ADAPTERS);
- every bc_common module is on the map (`bc_common/__init__.py`'s docstring and docs/architecture.md), and the
  map names no module that does not exist.

The checker runs on the real tree, and on copies with one forbidden import added, which it must report.
"""
from __future__ import annotations

import ast
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOLS = {"bc_gen": "bc-gen", "bc_eval": "bc-eval", "bc_filter": "bc-filter", "bc_train": "bc-train",
         "bc_toolserve": "bc-toolserve", "bc_report": "bc-report"}
AUTHOR_API = {"bootcamp", "tool", "interaction", "types", "manifest", "answer_blocks", "grids", "safe_eval",
              "images", "drawing", "seeding", "hashseed", "stamps", "config", "errors", "sandbox", "code_tools", "function_runner",
              "sql_runner", "sandboxed_reward", "rubric", "seats", "answer_balance"}
# bc-train's modules that adapt to verl's internals (a package of steps counts with its sub-modules)
VERL_ADAPTERS = {"bc_train.agent_loop", "bc_train.verl_tool", "bc_train.sft_dataset", "bc_train.check"}


@dataclass(frozen=True)
class Import:
    module: str  # absolute, resolved from relative imports
    line: int
    local: bool  # inside a function
    type_only: bool  # under `if TYPE_CHECKING:`


def package_roots(root: Path) -> dict[str, Path]:
    """Top-level package -> its folder: bc_common, each tool, and the built-in bootcamps."""
    roots = {"bc_common": root / "bc-common" / "bc_common", "bootcamps": root / "bootcamps"}
    roots.update({pkg: root / folder / pkg for pkg, folder in TOOLS.items()})
    return {pkg: folder for pkg, folder in roots.items() if folder.is_dir()}


def modules_under(package: str, folder: Path) -> dict[str, Path]:
    out = {}
    for path in sorted(folder.rglob("*.py")):
        parts = list(path.relative_to(folder).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join([package, *parts])] = path
    return out


def imports_of(path: Path, module: str) -> list[Import]:
    """Every import in the file, relative ones resolved against `module`."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, local: bool, type_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                found.extend(Import(a.name, child.lineno, local, type_only) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")[: len(package.split(".")) - (child.level - 1)]
                    base = ".".join([*anchor, *([base] if base else [])])
                # `from pkg import mod` imports pkg.mod when it is a module: count both, the rules decide
                names = [f"{base}.{a.name}" for a in child.names if a.name != "*"]
                found.extend(Import(n, child.lineno, local, type_only) for n in [base, *names])
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                visit(child, local, True)
            else:
                visit(child, local or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)),
                      type_only)

    visit(tree, False, False)
    return found


def map_entries(docstring: str) -> set[str]:
    """Module names the map lists: lines `    name   what it is` under an area heading."""
    return set(re.findall(r"^ {4}([a-z_][a-z0-9_]*)\s{2,}\S", docstring, re.M))


def violations(root: Path) -> list[str]:
    """Every broken rule in the tree at `root`, as `FILE:LINE: what`."""
    roots = package_roots(root)
    modules: dict[str, Path] = {}
    for pkg, folder in roots.items():
        modules.update(modules_under(pkg, folder))
    common = {m.removeprefix("bc_common.") for m in modules if m.startswith("bc_common.")}
    out: list[str] = []
    graph: dict[str, set[str]] = {m: set() for m in common}
    for module, path in modules.items():
        top = module.split(".")[0]
        where = path.relative_to(root)
        for imp in imports_of(path, module):
            target_top = imp.module.split(".")[0]
            if target_top == "verl" and not any(module == a or module.startswith(a + ".") for a in VERL_ADAPTERS):
                out.append(f"{where}:{imp.line}: imports verl outside bc-train's adapters ({imp.module})")
            if top in TOOLS and target_top != top and (target_top in TOOLS or target_top == "bootcamps"):
                out.append(f"{where}:{imp.line}: tool {top} imports {imp.module} (tools depend on bc_common only)")
            if top == "bc_common" and (target_top in TOOLS or target_top == "bootcamps"):
                out.append(f"{where}:{imp.line}: bc_common imports {imp.module} (it depends on no tool or bootcamp)")
            if top == "bootcamps" and target_top in TOOLS:
                out.append(f"{where}:{imp.line}: a bootcamp imports the tool module {imp.module}")
            if top == "bootcamps" and target_top == "bc_common" and imp.module != "bc_common":
                name = imp.module.split(".")[1]
                if name not in AUTHOR_API and f"bc_common.{name}" in modules:
                    out.append(f"{where}:{imp.line}: a bootcamp imports bc_common.{name}, which is not in the "
                               f"author API ({', '.join(sorted(AUTHOR_API))})")
            if top == "bc_common" and target_top == "bc_common" and not imp.type_only and imp.module != "bc_common":
                name = imp.module.split(".")[1]
                source = module.removeprefix("bc_common.")
                if name in common and name != source:
                    graph[source].add(name)
    out.extend(f"bc_common has an import cycle: {' -> '.join([*cycle, cycle[0]])}" for cycle in cycles(graph))
    for tool in TOOLS:
        tool_modules = {m: p for m, p in modules.items() if m.split(".")[0] == tool}
        out.extend(f"{TOOLS[tool]} has an import cycle: {' -> '.join([*cycle, cycle[0]])}"
                   for cycle in cycles(module_graph(tool_modules)))
    out.extend(_map_violations(root, common))
    return list(dict.fromkeys(out))  # `from x import a, b` reports a line once


def module_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the modules of the same set it imports (not its own parent packages: Python imports a package
    before its modules, so that is no cycle); imports under TYPE_CHECKING do not count."""
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        for imp in imports_of(path, module):
            target = imp.module
            while target and target not in modules:  # `from .a import name`: the module a
                target = target.rpartition(".")[0]
            if target and not imp.type_only and not (module + ".").startswith(target + "."):
                graph[module].add(target)
    return graph


def _map_violations(root: Path, common: set[str]) -> list[str]:
    out = []
    init = root / "bc-common" / "bc_common" / "__init__.py"
    listed = map_entries(ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or "")
    modules = common - {"__init__"} - {m for m in common if "." in m}
    for name in sorted(modules - listed):
        out.append(f"bc_common/{name}.py is not on the map in bc_common/__init__.py's docstring")
    for name in sorted(listed - modules):
        out.append(f"bc_common/__init__.py's map lists {name}, which is no module of bc_common")
    doc = root / "docs" / "architecture.md"
    text = doc.read_text(encoding="utf-8") if doc.is_file() else ""
    for name in sorted(modules):
        if f"`{name}`" not in text:
            out.append(f"docs/architecture.md does not place bc_common's `{name}` in an area")
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each as a path through it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(_path_through(sorted(component), graph))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _path_through(component: list[str], graph: dict[str, set[str]]) -> list[str]:
    """One cycle inside a strongly connected component, to name in the message."""
    members = set(component)
    path = [component[0]]
    while True:
        nxt = min(graph[path[-1]] & members)
        if nxt in path:
            return path[path.index(nxt):]
        path.append(nxt)


# ---- the real tree -----------------------------------------------------------------------------------------------

def test_the_tree_keeps_every_rule():
    assert violations(ROOT) == []


# ---- the checker reports what it must ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tree_copy(tmp_path_factory) -> Path:
    """The Python sources, docs and map of the real tree, to break one rule at a time."""
    copy = tmp_path_factory.mktemp("tree")
    keep = shutil.ignore_patterns("__pycache__", "*.pyc", "*.json", "*.jsonl", "*.png", "*.parquet", "*.gz")
    for folder in [*TOOLS.values(), "bc-common", "bootcamps", "docs"]:
        shutil.copytree(ROOT / folder, copy / folder, ignore=keep)
    return copy


def broken(tree: Path, tmp_path: Path, file: str, source: str, *, replace: str | None = None) -> list[str]:
    """The violations of `tree` with `source` appended to `file` (or replacing the text `replace` in it)."""
    work = tmp_path / f"tree{len(list(tmp_path.iterdir()))}"
    shutil.copytree(tree, work)
    target = work / file
    text = target.read_text(encoding="utf-8") if target.exists() else ""
    if replace is not None:
        assert replace in text, f"{replace!r} is not in {file}"
        text = text.replace(replace, source)
    else:
        text += "\n" + source + "\n"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return violations(work)


def test_the_copy_is_clean(tree_copy):
    assert violations(tree_copy) == []


@pytest.mark.parametrize(("file", "source", "expected"), [
    ("bc-gen/bc_gen/cli.py", "from bc_eval.runner import run", "tool bc_gen imports bc_eval.runner"),
    ("bc-filter/bc_filter/select.py", "def f():\n    import bc_train.rl", "tool bc_filter imports bc_train.rl"),
    ("bc-eval/bc_eval/cli.py", "import bootcamps.arithmetic", "tool bc_eval imports bootcamps.arithmetic"),
    ("bc-common/bc_common/jsonl.py", "def f():\n    from bc_gen import cli", "bc_common imports bc_gen"),
    ("bootcamps/noop/__init__.py", "from bc_common.rollout import run_trajectory",
     "a bootcamp imports bc_common.rollout, which is not in the author API"),
    ("bootcamps/noop/__init__.py", "from bc_common import catalog",
     "a bootcamp imports bc_common.catalog, which is not in the author API"),
    ("bootcamps/noop/__init__.py", "import bc_eval.cli", "a bootcamp imports the tool module bc_eval.cli"),
    ("bc-common/bc_common/rollout.py", "import verl", "imports verl outside bc-train's adapters"),
    ("bc-train/bc_train/rl.py", "from verl.utils import hdfs_io", "imports verl outside bc-train's adapters"),
    ("bc-common/bc_common/errors.py", "def f():\n    from .jsonl import loads",
     "bc_common has an import cycle: errors -> jsonl -> errors"),
    ("bc-common/bc_common/manifest.py", "from . import bootcamp",
     "bc_common has an import cycle: bootcamp -> manifest -> bootcamp"),
    ("bc-toolserve/bc_toolserve/admission.py", "def f():\n    from .master import Master",
     "bc-toolserve has an import cycle: bc_toolserve.admission -> bc_toolserve.master -> bc_toolserve.admission"),
    ("bc-eval/bc_eval/summary.py", "from . import cli", "bc-eval has an import cycle: bc_eval."),
    ("bc-common/bc_common/brand_new.py", '"""A module nobody put on the map."""',
     "bc_common/brand_new.py is not on the map"),
])
def test_a_forbidden_import_is_reported(tree_copy, tmp_path, file, source, expected):
    found = broken(tree_copy, tmp_path, file, source)
    assert any(expected in v for v in found), found
    line_of_file = file.split("/", 1)[1] if file.startswith("bc-common") else file
    assert all(line_of_file in v or "cycle" in v or "map" in v or "architecture.md" in v for v in found), found


def test_type_checking_imports_and_adapters_are_allowed(tree_copy, tmp_path):
    assert broken(tree_copy, tmp_path, "bc-common/bc_common/errors.py",
                  "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .jsonl import loads") == []
    assert broken(tree_copy, tmp_path, "bc-train/bc_train/verl_tool.py", "def f():\n    import verl.trainer") == []


def test_the_map_names_only_real_modules_and_the_doc_places_each(tree_copy, tmp_path):
    found = broken(tree_copy, tmp_path, "bc-common/bc_common/__init__.py",
                   '    ghost               a module that is not there\n"""', replace='"""\n')
    assert "bc_common/__init__.py's map lists ghost, which is no module of bc_common" in found
    found = broken(tree_copy, tmp_path, "docs/architecture.md", "", replace="`jsonl`")
    assert "docs/architecture.md does not place bc_common's `jsonl` in an area" in found
