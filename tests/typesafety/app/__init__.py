"""A small typed application, written the way a user writes one (issue 14's yardstick).

It must type-check cleanly under mypy --strict and pyright strict (no false positive);
``mistakes.py`` holds 50 typical mistakes made against it, which ``count_mistakes.py``
counts per checker. Never imported by the tests: data for the checkers.
"""
