"""congestion_aioquic: aioquic congestion controls backed by the `congestion` crate's
C ABI (`congestion-ffi`, RFC mode) through ctypes.

Importing the package registers them with aioquic:

- ``"congestion-cubic"``: :class:`CongestionCubic`, RFC 9438 CUBIC + HyStart++;
- ``"congestion-newreno"``: :class:`CongestionNewReno`, RFC 9002 NewReno + HyStart++;
- ``"congestion-bbr"``: :class:`CongestionBbr`, Linux-mode BBR v1 (per-packet calls);
- ``"congestion-bbr3"``: :class:`CongestionBbr3`, Linux-mode BBRv3 (per-packet calls);
- ``"congestion-bbr3-rfc"``: :class:`CongestionBbr3Rfc`, RFC-mode BBRv3 in bytes.

The BBR controllers pace at BBR's rate once ``install_pacer(connection)`` gave the
connection their pacer.

Select one with ``QuicConfiguration(congestion_control_algorithm="congestion-cubic")``.
"""

from aioquic.quic.congestion.base import register_congestion_control

from ._ffi import CongestionError, Lib, load
from .controller import (
    CongestionBbr,
    CongestionBbr3,
    CongestionBbr3Rfc,
    CongestionCubic,
    CongestionNewReno,
    ControllerPacer,
    install_pacer,
)

NAMES = {
    "congestion-cubic": CongestionCubic,
    "congestion-newreno": CongestionNewReno,
    "congestion-bbr": CongestionBbr,
    "congestion-bbr3": CongestionBbr3,
    "congestion-bbr3-rfc": CongestionBbr3Rfc,
}

for _name, _cls in NAMES.items():
    register_congestion_control(_name, _cls)

__all__ = ["CongestionCubic", "CongestionNewReno", "CongestionBbr", "CongestionBbr3",
           "CongestionBbr3Rfc", "ControllerPacer", "install_pacer", "CongestionError", "Lib", "load", "NAMES"]
__version__ = "0.2.0"
