"""The WEC rules engine: pure, deterministic, no I/O."""
