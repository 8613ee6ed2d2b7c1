# The part of tqdm that combinators.integrations.progress uses.
