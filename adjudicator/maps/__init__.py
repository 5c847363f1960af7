"""The map kit: hex grids, hex maps and their movement tables, movement, retreat paths, command range, lines of sight,
and the area graph of area-movement games. Rulesets compose these modules (never inherit from them) and pass their
policies as data and predicates; no game rule lives here, and everything that decides an outcome is
deterministic (ties broken by hex or zone id, never by set order). See docs/hexmap-format.md."""
