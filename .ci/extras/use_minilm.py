"""Extra `minilm`: the bundled all-MiniLM-L6-v2 ranks documents by meaning, offline."""

import math

from combinators.documents import Document
from combinators.embeddings import SentenceEmbeddings
from combinators.vectorstores import InMemoryVectorStore

model = SentenceEmbeddings()
vectors = model.embed_documents(["The keeper climbs the tower.", "Puffins nest on the cliffs."])
assert [len(v) for v in vectors] == [384, 384]
assert all(math.isclose(sum(x * x for x in v), 1.0, rel_tol=1e-4) for v in vectors)
store = InMemoryVectorStore.from_documents(
    [Document("The lighthouse keeper lights the lamp at dusk."), Document("Seabirds raise chicks in burrows.")],
    model,
)
(best,) = store.as_retriever(k=1).invoke("Who looks after the light?")
assert best.page_content.startswith("The lighthouse keeper"), best
print("minilm: 384 dimensions, meaning-ranked")
