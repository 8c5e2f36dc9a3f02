"""The boards' devices: the serial links (:mod:`.link`), a virtual peg-board (:mod:`.simulator`), protocol logs replayed (:mod:`.replay`)."""
