"""The ``openai`` extra, checked before anything of this package loads, so that its absence is named."""

from combinators.integrations._extra import require_extra

require_extra("combinators.integrations.openai", "openai", "openai")
