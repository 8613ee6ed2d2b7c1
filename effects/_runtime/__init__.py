"""The runtime, private: scopes, streaming runs, entry calls, the effect stream, limits.

Authors reach it through ``effects.authoring`` (and see their scope as ``effects.Scope``);
the Runnable starts runs through ``effects.runtime``.
"""
