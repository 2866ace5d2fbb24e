"""congestion_aioquic: aioquic congestion controls backed by the `congestion` crate's
C ABI (`congestion-ffi`, RFC mode) through ctypes.

Importing the package registers them with aioquic:

- ``"congestion-cubic"``: :class:`CongestionCubic`, RFC 9438 CUBIC + HyStart++;
- ``"congestion-newreno"``: :class:`CongestionNewReno`, RFC 9002 NewReno + HyStart++.

Select one with ``QuicConfiguration(congestion_control_algorithm="congestion-cubic")``.
"""

from aioquic.quic.congestion.base import register_congestion_control

from ._ffi import CongestionError, Lib, load
from .controller import CongestionCubic, CongestionNewReno

NAMES = {
    "congestion-cubic": CongestionCubic,
    "congestion-newreno": CongestionNewReno,
}

for _name, _cls in NAMES.items():
    register_congestion_control(_name, _cls)

__all__ = ["CongestionCubic", "CongestionNewReno", "CongestionError", "Lib", "load", "NAMES"]
__version__ = "0.2.0"
