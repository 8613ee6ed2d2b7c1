"""The runtime, private: scopes, streaming runs, entry calls, the effect stream, limits."""
