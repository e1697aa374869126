"""The WEC rules engine: pure, deterministic, no I/O."""
from . import answerer as _answerer  # noqa: F401  installs the OmniscientAnswerer as the default
