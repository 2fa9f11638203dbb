"""Validation of loaded config files against the published JSON Schemas."""
