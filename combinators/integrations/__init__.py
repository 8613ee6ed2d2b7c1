"""Providers and infrastructure, each importable only with its extra."""
