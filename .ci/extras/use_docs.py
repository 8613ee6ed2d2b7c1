"""Extra `docs`: the site builds with `mkdocs build --strict` (the checkout's pages, the wheel's tools)."""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

checkout = Path(os.environ["CHECKOUT"])
with tempfile.TemporaryDirectory() as site:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", site], cwd=checkout, check=True, env=env
    )
    pages = list(Path(site).glob("**/*.html"))
print(f"docs: mkdocs build --strict, {len(pages)} pages")
