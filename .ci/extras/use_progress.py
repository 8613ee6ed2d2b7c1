"""Extra `progress`: a batch with a progress bar (tqdm, on stderr)."""

from combinators import RunnableLambda

doubled = RunnableLambda(lambda n: n * 2).batch(list(range(50)), progress=True)
assert doubled == [n * 2 for n in range(50)]
print("progress: 50 items")
