"""A seed-style visual generator (the seed's base class, **kwargs, no Config): prompt_func returns the seed's
dict `{"prompt_img", "prompt_txt", "question"}` with the picture as a PIL image, PNG bytes, or a path it wrote
into a shared folder (as the seed's generators did)."""
from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from bc_common.bootcamp import BaseInstructionGenerator


class SeedDotsGenerator(BaseInstructionGenerator):
    mode = "pil"
    folder = "shared_images"  # relative to the current directory, as the seed's were

    def __init__(self, **kwargs: Any):
        super().__init__()
        for key, value in kwargs.items():
            setattr(self, key, value)

    def case_generator(self) -> dict[str, Any]:
        cells = self.rng.sample(range(64 * 64), self.rng.randint(3, 12))
        return {"dots": len(cells), "cells": sorted(cells)}

    def prompt_func(self, identity: dict[str, Any]) -> dict[str, Any]:
        from PIL import Image

        image = Image.new("RGB", (64, 64), "white")
        for cell in identity["cells"]:
            image.putpixel((cell % 64, cell // 64), (0, 0, 0))
        picture: Any = image
        if self.mode == "bytes":
            buf = io.BytesIO()
            image.save(buf, format="PNG")
            picture = buf.getvalue()
        elif self.mode == "path":
            folder = Path(self.folder)
            folder.mkdir(parents=True, exist_ok=True)
            picture = folder / "current.png"  # overwritten by the next task: bc-gen reads it at once
            image.save(picture)
            picture = str(picture)
        key = "prompt_image" if self.mode == "typo" else "prompt_img"
        return {key: picture, "prompt_txt": "Count the dots in the picture.",
                "question": "How many black dots are there? Answer <answer>N</answer>."}


class SeedDotsBytes(SeedDotsGenerator):
    mode = "bytes"


class SeedDotsPath(SeedDotsGenerator):
    mode = "path"


class SeedDotsTypo(SeedDotsGenerator):
    mode = "typo"
