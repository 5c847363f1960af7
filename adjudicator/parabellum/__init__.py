"""The Para Bellum kernel: the rules Caldiero 1796 and Arrivano i Francesi! share, written once, one module per
rule area (initiative, zones of control, efficiency, movement under an order, the assault table). A game is a
`variant.Variant`: its data and hook overrides; the kernel never asks which game it runs (issue 18)."""
