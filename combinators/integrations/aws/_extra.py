"""The ``aws`` extra, checked before anything of this package loads, so that its absence is named."""

from combinators.integrations._extra import require_extra

require_extra("combinators.integrations.aws", "aws", "boto3")
