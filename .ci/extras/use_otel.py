"""Extra `otel`: a traced chain runs on the API alone, and the scope version is the distribution's."""

from importlib.metadata import version

from combinators import RunnableLambda
from combinators.integrations.otel.semconv import scope_version

traced = RunnableLambda(str.upper).with_tracing()
assert traced.invoke("hi") == "HI"
assert scope_version() == version("lcel-combinators"), scope_version()
print("otel: traced, scope version", scope_version())
