"""Providers and infrastructure, each usable only with its extra. A package here whose import
needs its extra checks it first, before any import of its own (``effects.hooks.require_extra``):
without the extra, importing it raises ``effects.MissingExtraError`` naming the extra to
install, rather than an ``ImportError`` from deep inside."""
