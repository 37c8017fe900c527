"""The HTML page: one file with every script, style, plot and trajectory inline, and a Content-Security-Policy
that lets nothing be fetched at view time and runs only the page's own scripts (named by hash).

Vega, Vega-Lite and vega-embed come from the `vl-convert-python` package (`javascript_bundle()`, offline); the
bundle costs seconds to build, so it is kept in the user's cache folder per vl-convert version.
"""
from __future__ import annotations

import base64
import hashlib
import os
from html import escape
from importlib import resources
from importlib.metadata import version
from pathlib import Path
from typing import Any

import orjson

from bc_common.jsonl import atomic_write_bytes


def script_json(value: Any) -> str:
    """JSON for a `<script type="application/json">` block: `<`, `>` and `&` written as \\u escapes, so no record
    text can close the block or open a tag (they occur only inside JSON strings, where the escape means the same)."""
    raw = orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY)
    return raw.decode().replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "bc-report"


def vega_bundle() -> str:
    """vega-embed + Vega-Lite + Vega as one script, from vl-convert (cached on disk per vl-convert version)."""
    import vl_convert

    from .charts import VEGA_LITE

    vl_version = "v" + "_".join(VEGA_LITE.split(".")[:2])  # the Vega-Lite the specs are written for: 'v6_4'
    path = _cache_dir() / f"vega-embed-vl-convert-{version('vl-convert-python')}-{vl_version}.js"
    try:
        text = path.read_text(encoding="utf-8")
        if len(text) > 100_000:
            return text
    except OSError:
        pass
    text = vl_convert.javascript_bundle(vl_version=vl_version)
    if "</script" in text.lower():  # would end the inline script early; never seen, but the page must not break
        text = text.replace("</script", "<\\/script").replace("</SCRIPT", "<\\/SCRIPT")
    try:
        atomic_write_bytes(path, text.encode())
    except OSError:  # a read-only home: build it again next time
        pass
    return text


def asset(name: str) -> str:
    return resources.files("bc_report").joinpath("assets", name).read_text(encoding="utf-8")


def _hash(script: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"


def document(title: str, body: str, charts: list[dict[str, Any]], browser: dict[str, Any]) -> str:
    """The whole page: `body` (already escaped HTML), the charts' specs and the browser's data as JSON blocks."""
    bundle = vega_bundle()
    app = asset("report.js")
    # no 'unsafe-eval': the charts are embedded with Vega's expression interpreter (report.js, ast: true)
    csp = (f"default-src 'none'; script-src {_hash(bundle)} {_hash(app)}; "
           "style-src 'unsafe-inline'; img-src data:; font-src data:; base-uri 'none'; form-action 'none'")
    return "".join([
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>",
        f"<meta http-equiv='Content-Security-Policy' content=\"{csp}\">",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{escape(title)}</title><style>{asset('report.css')}</style></head><body>",
        body,
        f"<script type='application/json' id='bc-chart-data'>{script_json(charts)}</script>",
        f"<script type='application/json' id='bc-browser-data'>{script_json(browser)}</script>",
        f"<script>{bundle}</script>",
        f"<script>{app}</script>",
        "</body></html>\n",
    ])
