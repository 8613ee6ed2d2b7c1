"""Extra `testing`: Hypothesis law checks on a chain of the user's."""

from combinators import RunnableLambda
from combinators.testing import check_laws


def tidy(text: str) -> str:
    return text.strip().title()


report = check_laws(RunnableLambda(tidy) | RunnableLambda(str.lower), max_examples=10)
assert report.holds, report
print("testing:", str(report).splitlines()[0])
