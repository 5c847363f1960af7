"""The CLI's parts beside its entry point cli.py: shared options, errors and rendering (common), the dice and
entropy commands (dice), the audit and exchange commands (audit)."""
