"""Headless Debian Chromium driven over the DevTools protocol (aiohttp websocket on loopback): open a page, collect
console errors and exceptions, evaluate JavaScript, take screenshots. Every wait is bounded."""
from __future__ import annotations

import asyncio
import base64
import itertools
import os
import subprocess
import time
import zlib
from pathlib import Path
from typing import Any

import aiohttp

CHROMIUM = "/usr/bin/chromium"


class Browser:
    """One headless Chromium with one page; `async with Browser(tmp_path) as b: await b.open(url)`."""

    def __init__(self, profile: Path, width: int = 1300, height: int = 1000):
        self.profile, self.width, self.height = profile, width, height
        self.errors: list[str] = []  # console.error calls, uncaught exceptions, error log entries (CSP, network)
        self.events: list[dict[str, Any]] = []
        self.requests: list[str] = []  # every URL the page asked for
        self.dialogs: list[str] = []  # alert() and friends
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future] = {}

    async def __aenter__(self) -> Browser:
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-quic",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
                 f"--user-data-dir={self.profile}", f"--window-size={self.width},{self.height}", "about:blank"]
        self.proc = subprocess.Popen([CHROMIUM, *flags], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not (port_file.exists() and port_file.read_text().strip()):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("chromium did not open its DevTools port")
            await asyncio.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        self.http = aiohttp.ClientSession()
        async with self.http.get(f"http://127.0.0.1:{port}/json/list") as resp:
            pages = [t for t in await resp.json() if t.get("type") == "page"]
        self.ws = await self.http.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=0)
        self._reader = asyncio.create_task(self._read())
        for domain in ("Page", "Runtime", "Log", "Network"):
            await self.send(f"{domain}.enable")
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._reader.cancel()
        await self.ws.close()
        await self.http.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()

    async def _read(self) -> None:
        async for msg in self.ws:
            data = msg.json()
            if "id" in data:
                fut = self._pending.pop(data["id"], None)
                if fut is not None and not fut.done():
                    fut.set_result(data)
                continue
            self.events.append(data)
            method, params = data.get("method"), data.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                self.errors.append("console: " + " ".join(str(a.get("value", a.get("description")))
                                                          for a in params.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                self.errors.append("exception: " + str(details.get("exception", {}).get("description")
                                                       or details.get("text")))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                self.errors.append("log: " + params["entry"].get("text", ""))
            elif method == "Network.requestWillBeSent":
                self.requests.append(params.get("request", {}).get("url", ""))
            elif method == "Page.javascriptDialogOpening":
                self.dialogs.append(params.get("message", ""))
                asyncio.ensure_future(self.send("Page.handleJavaScriptDialog", {"accept": True}))

    async def send(self, method: str, params: dict[str, Any] | None = None, timeout: float = 60) -> dict[str, Any]:
        msg_id = next(self._ids)
        fut = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = fut
        await self.ws.send_json({"id": msg_id, "method": method, "params": params or {}})
        reply = await asyncio.wait_for(fut, timeout)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    async def eval(self, expression: str) -> Any:
        result = await self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                      "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def open(self, url: str, ready: str = "true", timeout: float = 60) -> None:
        """Navigate and wait until the `ready` expression is true (bounded)."""
        await self.send("Page.navigate", {"url": url})
        deadline = time.monotonic() + timeout
        while True:
            try:
                if await self.eval(f"document.readyState === 'complete' && ({ready})"):
                    return
            except RuntimeError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"page not ready: {ready}; errors: {self.errors}")
            await asyncio.sleep(0.2)

    async def screenshot(self, path: Path, full_page: bool = True) -> bytes:
        clip = None
        if full_page:
            size = (await self.send("Page.getLayoutMetrics"))["cssContentSize"]
            clip = {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 16000), "scale": 1}
        params = {"format": "png", "captureBeyondViewport": full_page}
        if clip:
            params["clip"] = clip
        data = base64.b64decode((await self.send("Page.captureScreenshot", params, timeout=120))["data"])
        path.write_bytes(data)
        return data


def png_ink(data: bytes) -> float:
    """Share of decoded scanline bytes that are not page background (white or the page's light grey): a rough
    'is anything drawn' figure that needs no image library (PNG filters only shift it a little)."""
    pos, idat = 8, b""
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    raw = zlib.decompress(idat)
    background = raw.count(0) + raw.count(255) + raw.count(247) + raw.count(248) + raw.count(250)
    return 1 - background / len(raw)


def have_chromium() -> bool:
    return os.path.exists(CHROMIUM)
