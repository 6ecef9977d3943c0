"""Whether an article says only what its sources say: the code fact guard (guard/), then the model
check (verify), the evidence code accepts for a figure the guard did not find, the headline
checked like a sentence, the trims a verifier may offer, and editors' review of the issues."""
