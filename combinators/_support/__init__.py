"""Private helpers of the nodes: coercion, fan-out, tee, re-readable inputs, schemas."""
