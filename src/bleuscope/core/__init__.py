"""Everything below the metrics: streams read in checked chunks, files, statistics and their summable
totals, signatures, argument checks, the process pool, and the one door to the compiled core
(:mod:`bleuscope.core.native`)."""
