"""Side-by-side benchmark of combinators against langchain-core (run: ``python -m bench``).

See bench/README.md for the workloads, the columns and the budget table.
"""
