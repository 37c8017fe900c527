"""bc-report: one self-contained HTML report (tables, plots, paired comparison, trajectory browser) or Markdown
tables over bc-eval trajectories. `bc_report.report.build_report` is the Python entry point."""
