"""Count the mistakes of ``mistakes.py`` each checker catches (a function with an error).

    python tests/typesafety/app/count_mistakes.py     (from the project root)
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
MISTAKES = HERE / "mistakes.py"


def functions() -> dict[str, tuple[int, int]]:
    tree = ast.parse(MISTAKES.read_text(encoding="utf-8"))
    return {
        node.name: (node.lineno, node.end_lineno or node.lineno)
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }


def mypy_lines() -> set[int]:
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), "--output", "json", str(MISTAKES)],
        cwd=ROOT, capture_output=True, text=True,
    ).stdout
    lines: set[int] = set()
    for raw in out.splitlines():
        if raw.startswith("{"):
            record = json.loads(raw)
            if record["severity"] == "error" and record["file"].endswith("mistakes.py"):
                lines.add(int(record["line"]))
    return lines


def pyright_lines() -> set[int]:
    config = {"typeCheckingMode": "strict", "pythonVersion": "3.11", "stubPath": str(ROOT / "typings"),
              "extraPaths": [str(ROOT)], "reportMissingTypeStubs": True, "reportDeprecated": "error"}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "pyrightconfig.json"
        path.write_text(json.dumps(config), encoding="utf-8")
        out = subprocess.run(
            [str(Path(sys.executable).parent / "pyright"), "--pythonpath", sys.executable,
             "--project", str(path), "--outputjson", str(MISTAKES)],
            cwd=ROOT, capture_output=True, text=True,
        ).stdout
    found = json.loads(out)["generalDiagnostics"]
    return {d["range"]["start"]["line"] + 1 for d in found if d["severity"] == "error"}


def caught(lines: set[int]) -> list[str]:
    return [name for name, (start, end) in functions().items() if any(start <= n <= end for n in lines)]


def main() -> None:
    names = list(functions())
    for checker, lines in (("mypy", mypy_lines()), ("pyright", pyright_lines())):
        found = caught(lines)
        missed = [n for n in names if n not in found]
        print(f"{checker}: {len(found)} of {len(names)} mistakes caught; missed: {', '.join(missed) or 'none'}")


if __name__ == "__main__":
    main()
