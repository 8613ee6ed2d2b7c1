"""Amazon Web Services integrations (extra ``aws``): the Kendra retriever."""

from effects.hooks import require_extra as _require_extra

_require_extra("combinators.integrations.aws", "aws", "boto3")

from combinators.integrations.aws.kendra import AmazonKendraRetriever as AmazonKendraRetriever
from combinators.integrations.aws.kendra import KendraAccessDenied as KendraAccessDenied
from combinators.integrations.aws.kendra import KendraConnectionError as KendraConnectionError
from combinators.integrations.aws.kendra import KendraError as KendraError
from combinators.integrations.aws.kendra import KendraInvalidRequest as KendraInvalidRequest
from combinators.integrations.aws.kendra import KendraResourceNotFound as KendraResourceNotFound
from combinators.integrations.aws.kendra import KendraThrottled as KendraThrottled
from combinators.integrations.aws.kendra import KendraUnavailable as KendraUnavailable

__all__ = [
    "AmazonKendraRetriever",
    "KendraAccessDenied",
    "KendraConnectionError",
    "KendraError",
    "KendraInvalidRequest",
    "KendraResourceNotFound",
    "KendraThrottled",
    "KendraUnavailable",
]
