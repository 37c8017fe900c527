"""Bootcamps shipped with the harness: one package per environment."""
