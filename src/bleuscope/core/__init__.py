"""Text or ids in, per-segment integer statistics out: the layout, the counting engines and the one seam
(:mod:`bleuscope.core.backend`) where the compiled core plugs in."""
