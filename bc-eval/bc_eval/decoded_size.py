"""Count what a compressed answer decompresses to, so the size limit holds on the decoded body whatever the
HTTP library does with it (a 300 KB gzip body may expand to 300 MB)."""
from __future__ import annotations

import zlib

from bc_common.model import ModelError

# The codings we ask for (Accept-Encoding) and can count; a server sending another one is refused.
ACCEPTED_ENCODINGS = "gzip, deflate"
_STEP = 1 << 16  # decompress at most this much at a time: memory stays bounded while counting


class DecodedCounter:
    """Decompresses raw body chunks only to count their decoded bytes (the output is dropped at once).

        counter = DecodedCounter("gzip")
        counter.feed(chunk)   # -> decoded bytes so far
    """

    def __init__(self, encoding: str):
        coding = encoding.strip().lower()
        if coding in ("", "identity"):
            self._inflate = None
        elif coding in ("gzip", "x-gzip"):
            self._inflate = zlib.decompressobj(zlib.MAX_WBITS | 16)
        elif coding == "deflate":
            self._inflate = zlib.decompressobj(zlib.MAX_WBITS | 32)  # zlib-wrapped (or gzip); raw is tried below
            self._raw_fallback = True
        else:
            raise ModelError("invalid_response", f"the answer is encoded as {encoding!r}; only "
                             f"{ACCEPTED_ENCODINGS} (or none) are accepted")
        self.total = 0
        self._started = False

    def feed(self, chunk: bytes, limit: int) -> int:
        """Add one raw chunk; returns the decoded total, stopping early once it passes `limit`."""
        if self._inflate is None:
            self.total += len(chunk)
            return self.total
        data = chunk
        while data and self.total <= limit:
            try:
                out = self._inflate.decompress(data, _STEP)
            except zlib.error:
                if self._started or not getattr(self, "_raw_fallback", False):
                    raise ModelError("invalid_response", "the compressed answer is corrupt") from None
                self._inflate, self._raw_fallback = zlib.decompressobj(-zlib.MAX_WBITS), False
                continue
            self._started = True
            self.total += len(out)
            data = self._inflate.unconsumed_tail
        return self.total
