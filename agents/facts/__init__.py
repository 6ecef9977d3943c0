"""What a text states and what an article owes its release, in code: the release's key facts cut
into atoms, whether an article carries each, the source span each sentence rests on, and how
densely a text states checkable facts."""
