"""Extra `serving` (and its old name `server`): a chain served over HTTP, called in process."""

from starlette.testclient import TestClient

from combinators import RunnableLambda
from combinators.integrations.serving import serve

app = serve({"/shout": RunnableLambda(str.upper)})
with TestClient(app) as http:
    reply = http.post("/shout/invoke", json={"input": "hi"})
assert reply.status_code == 200 and reply.json()["output"] == "HI", reply.text
print("serving: /shout/invoke ->", reply.json()["output"])
