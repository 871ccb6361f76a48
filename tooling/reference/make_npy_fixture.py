"""Writes fixtures/npy/arange-3x4-float32.npy with numpy.save: the reference .npy that attnkit's
npy header reader is checked against (packages/cli/src/embed/npy-header.test.ts).
Run: .venv-ref/bin/python tooling/reference/make_npy_fixture.py"""
from pathlib import Path

import numpy as np

out = Path(__file__).parent / "fixtures" / "npy"
out.mkdir(parents=True, exist_ok=True)
np.save(out / "arange-3x4-float32.npy", np.arange(12, dtype="<f4").reshape(3, 4))
