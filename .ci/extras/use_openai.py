"""Extra `openai`: ChatOpenAI builds, and a call to a closed local port fails typed."""

from combinators.language_models import TransientModelError
from combinators.integrations.openai import ChatOpenAI

model = ChatOpenAI(model="m", base_url="http://127.0.0.1:9/v1", api_key="sk-test", max_retries=0, timeout=5)
try:
    model.invoke("hi")
except TransientModelError as error:
    print("openai: a closed port is a", type(error).__name__)
else:
    raise SystemExit("openai: expected a connection error")
