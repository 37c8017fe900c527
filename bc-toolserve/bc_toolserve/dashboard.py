"""The live dashboard: one HTML page rendered from the master's state, every value escaped, refresh every 3 s."""
from __future__ import annotations

import time
from html import escape
from typing import Any

STYLE = """
body{font-family:system-ui,sans-serif;margin:24px;color:#222;background:#fafafa}
h1{font-size:22px;margin:0 0 12px}h2{font-size:17px;margin:22px 0 8px}
.cards{display:flex;gap:12px}.card{background:#fff;border:1px solid #ddd;border-radius:6px;padding:10px 16px}
.card b{display:block;font-size:22px}table{border-collapse:collapse;background:#fff;width:100%}
th,td{border:1px solid #ddd;padding:5px 8px;text-align:left;font-size:13px}th{background:#f0f0f0}
.alive{color:#0a7d24;font-weight:600}.dead{color:#b00020;font-weight:600}
.bar{background:#4a7bd0;height:12px;display:inline-block;vertical-align:middle}
"""


def _e(value: Any) -> str:
    return escape(str(value), quote=True)


def render(state: dict[str, Any]) -> str:
    """The dashboard HTML for `state` (the master's /health answer)."""
    workers = state.get("workers", [])
    tools = state.get("tools", {})
    instances = state.get("instances", {})
    total = max(1, max((w["instances"] for w in workers), default=0))
    rows = []
    for w in workers:
        mark = "&#x25CF; alive" if w["status"] == "alive" else "&#x25CF; dead"  # a dot every font has
        rows.append(
            "<tr>"
            f"<td class='worker-id'>{_e(w['worker_id'])}</td>"
            f"<td class='{_e(w['status'])}'>{mark}</td>"
            f"<td>{_e(w['url'])}</td><td>{_e(w['host'])}</td>"
            f"<td>{_e(', '.join(w['tools']))}</td>"
            f"<td><b>{_e(w['instances'])}</b></td><td>{_e(w['calls'])}</td>"
            f"<td>{_e(w['last_heartbeat_s_ago'])} s ago</td>"
            f"<td>{_e(time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(w['registered_at'])))}</td>"
            "</tr>")
    tool_rows = [
        f"<tr><td>{_e(name)}</td><td>{_e(t['workers'])} / {_e(t['workers_total'])}</td>"
        f"<td class='{'alive' if t['workers'] else 'dead'}'>{'available' if t['workers'] else 'unavailable'}</td></tr>"
        for name, t in tools.items()]
    load_rows = [
        f"<tr><td>{_e(w['worker_id'])}</td><td><span class='bar' style='width:{int(300 * w['instances'] / total)}px'>"
        f"</span> {_e(w['instances'])}</td></tr>" for w in workers]
    empty = "<tr><td colspan='9'>no workers registered yet</td></tr>"
    return f"""<!doctype html>
<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="3">
<title>bc-toolserve</title><style>{STYLE}</style></head>
<body><h1>bc-toolserve master</h1>
<div class="cards">
<div class="card">Workers alive<b>{_e(state.get('workers_alive', 0))} / {_e(state.get('workers_total', 0))}</b></div>
<div class="card">Tools<b>{_e(len(tools))}</b></div>
<div class="card">Live instances<b>{_e(instances.get('total', 0))}</b></div>
<div class="card">Lost instances<b>{_e(instances.get('lost', 0))}</b></div>
<div class="card">Status<b>{_e(state.get('status', '?'))}</b></div>
</div>
<h2>Workers</h2>
<table id="workers"><tr><th>Worker</th><th>Status</th><th>URL</th><th>Host</th><th>Tools</th><th>Instances</th>
<th>Calls</th><th>Last heartbeat</th><th>Registered</th></tr>
{''.join(rows) or empty}</table>
<h2>Tools</h2>
<table id="tools"><tr><th>Tool</th><th>Live workers</th><th>State</th></tr>{''.join(tool_rows)}</table>
<h2>Load distribution</h2>
<table id="load"><tr><th>Worker</th><th>Live instances</th></tr>{''.join(load_rows)}</table>
<p>Uptime {_e(state.get('uptime_s', 0))} s. Refreshes every 3 s. JSON: <a href="/health">/health</a></p>
</body></html>
"""
