"""The case files are data for the type checkers, not modules to import or collect."""

collect_ignore_glob: list[str] = ["cases/*.py", "app/*.py", "messages.py"]
