import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
# transfer.py and relay.py sit next to the package.
sys.path.insert(0, os.path.dirname(HERE))

from congestion_aioquic import _ffi  # noqa: E402


class CountedLib:
    """Every C function of the loaded library wrapped to count its calls and record
    any nonzero return code; `real` holds the unwrapped functions."""

    def __init__(self, lib: _ffi.Lib) -> None:
        self.lib = lib
        self.real = {name: getattr(lib, name) for name in _ffi.PROTOTYPES}
        self.calls: dict[str, int] = {name: 0 for name in _ffi.PROTOTYPES}
        self.failures: list[tuple[str, int]] = []
        for name, f in self.real.items():
            setattr(lib, name, self._wrap(name, f))

    def _wrap(self, name, f):
        calls, failures = self.calls, self.failures

        def counted(*args):
            calls[name] += 1
            rc = f(*args)
            if rc != 0:
                failures.append((name, rc))
            return rc

        return counted

    def restore(self) -> None:
        for name, f in self.real.items():
            setattr(self.lib, name, f)


@pytest.fixture
def counted_lib():
    c = CountedLib(_ffi.load())
    try:
        yield c
    finally:
        c.restore()
