"""Property cases generated from the public Korean texts of bench/data/corpus.

Every text yields cases automatically: faithful rewrites of its own sentences (no flag allowed),
single injected errors (each must be flagged), and missing-facts cases (the text as its own article
lists nothing; the text minus a sentence lists that sentence's fact). Figures and dates are read
for the generators by an independent reader (`bench.truth.figures`), never by the guard under
test, so a misread in the guard shows up as a flag instead of a "faithful" rewrite that carries
the misread value. The guard is reached through one adapter module, `bench.truth.guard`.
"""
