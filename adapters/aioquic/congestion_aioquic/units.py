"""The command-line quantities of the quinn adapter's `quinn_transfer` (crate
`congestion-units`, units/src/parse.rs and limits.rs), read the same way: exact decimal
numbers (integer arithmetic, so 2.5g is exactly 2,500,000,000) with

- rates in bit/s, k/m/g/t = 10^3/10^6/10^9/10^12, optional bit, bit/s, bps, b/s;
- sizes in bytes, k/m/g/t (K/M/G/T, KiB/MiB/GiB/TiB) = powers of 2, kB/MB/GB/TB =
  powers of 10, "KB" refused as ambiguous;
- durations with a unit: ns, us, µs, ms, s, min, h, d ("m" refused: minutes or
  milliseconds?);
- probabilities in [0, 1), or a percentage with %.

Each parser raises `argparse.ArgumentTypeError` with a sentence naming the accepted
forms, so argparse exits with status 2 on a usage error.
"""

from __future__ import annotations

import argparse

RATE_FORMS = "a rate in bit/s such as 10g, 2.5g, 100mbit, 1Gbit/s or 50Mbps (k, m, g, t = 10^3, 10^6, 10^9, 10^12)"
SIZE_FORMS = "a size in bytes such as 9000, 64k, 1.5g or 64KiB (k, m, g, t = 2^10, 2^20, 2^30, 2^40), or 256kB, 100MB (SI: 10^3, 10^6)"
DURATION_FORMS = "a duration with its unit such as 80ms, 500us, 1.5s, 250ns, 10min, 1h or 20d"
PROBABILITY_FORMS = "a probability in [0, 1) such as 0.001, or a percentage below 100 such as 0.5%"

MAX_DIGITS = 20
# The relay's largest datagram plus headroom (adapters/quinn/examples/transfer.rs).
MIN_BUFFER_BYTES = 1500


class UnitError(argparse.ArgumentTypeError):
    pass


def _split(text: str) -> tuple[str, str]:
    end = 0
    while end < len(text) and (text[end].isdigit() and text[end].isascii() or text[end] == "."):
        end += 1
    return text[:end], text[end:]


def _scaled(number: str, scale: int, original: str) -> int:
    whole, _, fraction = number.partition(".")
    well_formed = (
        whole != ""
        and whole.isdigit()
        and (fraction == "" or fraction.isdigit())
        and not ("." in number and fraction == "")
    )
    if not well_formed:
        raise UnitError(
            f"`{original}` does not start with a number (digits, optionally a decimal point and more digits)"
        )
    whole = whole.lstrip("0")
    fraction = fraction.rstrip("0")
    if len(whole) + len(fraction) > MAX_DIGITS:
        raise UnitError(f"`{original}` has more than {MAX_DIGITS} significant digits")
    mantissa = int(whole + fraction or "0")
    divisor = 10 ** len(fraction)
    rounded = (mantissa * scale + divisor // 2) // divisor
    if rounded >= 1 << 64:
        raise UnitError(f"`{original}` is too large")
    return rounded


def _unsigned(text: str, forms: str) -> str:
    t = text.strip()
    if t.startswith("-"):
        raise UnitError(f"`{text}` is negative; expected {forms}")
    if t.startswith("+"):
        raise UnitError(f"`{text}`: no sign please; expected {forms}")
    return t


def _with_forms(e: UnitError, forms: str) -> UnitError:
    return UnitError(f"{e}; expected {forms}")


def rate_bps(text: str) -> int:
    t = _unsigned(text, RATE_FORMS)
    number, unit = _split(t)
    if "B" in unit:
        raise UnitError(
            f"`{text}`: rates are in bits per second (B means bytes); expected {RATE_FORMS}"
        )
    unit = unit.lower()
    scales = {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}
    if unit[:1] in scales:
        scale, rest = scales[unit[:1]], unit[1:]
    else:
        scale, rest = 1, unit
    if rest not in ("", "bit", "bit/s", "bps", "b/s"):
        raise UnitError(f"`{text}` is not {RATE_FORMS}")
    try:
        bps = _scaled(number, scale, text)
    except UnitError as e:
        raise _with_forms(e, RATE_FORMS) from None
    if bps == 0:
        raise UnitError(f"`{text}`: a rate must be above 0 bit/s")
    return bps


def size_bytes(text: str) -> int:
    t = _unsigned(text, SIZE_FORMS)
    number, unit = _split(t)
    scales = {
        "": 1, "B": 1,
        "k": 1 << 10, "K": 1 << 10, "KiB": 1 << 10, "kiB": 1 << 10,
        "m": 1 << 20, "M": 1 << 20, "MiB": 1 << 20,
        "g": 1 << 30, "G": 1 << 30, "GiB": 1 << 30,
        "t": 1 << 40, "T": 1 << 40, "TiB": 1 << 40,
        "kB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12,
    }  # fmt: skip
    if unit == "KB":
        raise UnitError(
            f"`{text}`: KB is read as 2^10 bytes by some tools and 10^3 by others; "
            f"write {number}k or {number}KiB (2^10) or {number}kB (10^3)"
        )
    if unit not in scales:
        raise UnitError(f"`{text}` is not {SIZE_FORMS}")
    try:
        return _scaled(number, scales[unit], text)
    except UnitError as e:
        raise _with_forms(e, SIZE_FORMS) from None


def duration_ns(text: str) -> int:
    t = _unsigned(text, DURATION_FORMS)
    number, unit = _split(t)
    scales = {"ns": 1, "us": 10**3, "µs": 10**3, "ms": 10**6, "s": 10**9,
              "min": 60 * 10**9, "h": 3600 * 10**9, "d": 86400 * 10**9}
    if unit == "m":
        raise UnitError(
            f"`{text}`: m is minutes to some tools and milliseconds to others; write {number}min or {number}ms"
        )
    if unit == "":
        raise UnitError(f"`{text}` has no unit; expected {DURATION_FORMS}")
    if unit not in scales:
        raise UnitError(f"`{text}` is not {DURATION_FORMS}")
    try:
        return _scaled(number, scales[unit], text)
    except UnitError as e:
        raise _with_forms(e, DURATION_FORMS) from None


def probability(text: str) -> float:
    t = _unsigned(text, PROBABILITY_FORMS)
    number, unit = _split(t)
    if unit not in ("", "%"):
        raise UnitError(f"`{text}` is not {PROBABILITY_FORMS}")
    scale = 10**16 if unit == "%" else 10**18
    try:
        parts = _scaled(number, scale, text)
    except UnitError as e:
        raise _with_forms(e, PROBABILITY_FORMS) from None
    if parts >= 10**18:
        raise UnitError(f"`{text}` is not below 1; expected {PROBABILITY_FORMS}")
    return parts / 1e18


# -- the transfer's limits (units/src/limits.rs, adapters/quinn/examples/transfer.rs) --


def rtt_s(text: str) -> float:
    """A round-trip time above 0 and at most 1 h, in seconds."""
    ns = duration_ns(text)
    if ns == 0:
        raise UnitError(f"`{text}`: an RTT is above 0 and at most 1 h (3600s)")
    if ns > 3600 * 10**9:
        raise UnitError(f"`{text}`: an RTT is above 0 and at most 1 h (3600s)")
    return ns / 1e9


def positive_duration_s(text: str) -> float:
    ns = duration_ns(text)
    if ns == 0:
        raise UnitError(f"`{text}` must be above 0")
    return ns / 1e9


def positive_size(text: str) -> int:
    n = size_bytes(text)
    if n == 0:
        raise UnitError(f"`{text}` must be above 0 bytes")
    return n


def buffer_bytes(text: str) -> int:
    n = size_bytes(text)
    if n < MIN_BUFFER_BYTES:
        raise UnitError(
            f"`{text}` is {n} bytes; the buffer must hold one full-size packet, at least {MIN_BUFFER_BYTES} bytes"
        )
    return n


def loss_ppm(text: str) -> int:
    """A loss probability in parts per million (the relay's resolution)."""
    p = probability(text)
    ppm = round(p * 1e6)
    if p > 0 and ppm == 0:
        raise UnitError(f"`{text}` is below the relay's resolution of 1 ppm (0.000001)")
    return ppm
