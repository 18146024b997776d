"""Running metrics over large or distributed inputs: lazy chunked readers, streaming accumulators, the local
process pool and (optionally) Ray. Everything here sums per-segment statistics rows."""
