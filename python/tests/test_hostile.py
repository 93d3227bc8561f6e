"""Hostile bytes: truncations, garbage, bit flips. Every class either reads the bytes or raises
FormatError with a location — never another exception, never a crash of the interpreter."""

import areakit
import numpy as np
import pytest

from conftest import corpus_files, is_corrupted

BINARY = [
    (areakit.Bwm, ("wok",)),
    (areakit.Trx, ("trx",)),
    (areakit.Gff, ("gff",)),
    (areakit.TwoDa, ("2da",)),
    (areakit.Erf, ("erf",)),
    (areakit.Rim, ("rim",)),
    (areakit.Mdl, ("mdl-bin",)),
]
TEXT = [
    (areakit.Lyt, ("lyt",)),
    (areakit.Vis, ("vis",)),
    (areakit.MdlAscii, ("wok-ascii", "pwk-ascii")),
]


def smallest(formats, n=2):
    files = [p for p in corpus_files(*formats) if not is_corrupted(p)]
    assert len(files) >= n
    return sorted(files, key=lambda p: p.stat().st_size)[:n]


def attempt(cls, data):
    """Reads `data`; returns the model, or the FormatError (any other exception fails)."""
    try:
        return cls.read(data)
    except areakit.FormatError as e:
        assert isinstance(e, ValueError)
        assert e.message and str(e).startswith("<bytes>: ")
        assert e.kind in ("malformed", "unsupported", "limit-exceeded")
        return e


@pytest.mark.parametrize("cls,formats", BINARY, ids=[c[0].__name__ for c in BINARY])
def test_binary_truncations_and_flips(cls, formats):
    rng = np.random.default_rng(11)
    errors = tried = 0
    for path in smallest(formats):
        data = path.read_bytes()
        cuts = sorted(set([0, 1, 3, 4, 8, 12, len(data) // 2, len(data) - 1] + list(rng.integers(0, len(data), 20))))
        for cut in cuts:
            r = attempt(cls, data[:cut])
            tried += 1
            if isinstance(r, areakit.FormatError):
                errors += 1
                if cut == 0 and r.line is not None:
                    # Empty bytes hold no NUL: the one detection judges them as (empty) text
                    # where a format has a text form (MDL ASCII), located by line:column.
                    continue
                # Binary formats locate the problem by byte offset.
                assert r.offset is not None and r.line is None, r
                assert 0 <= r.offset <= len(data)
        for _ in range(40):
            b = bytearray(data)
            for i in rng.integers(0, len(b), 4):
                b[i] ^= 1 << int(rng.integers(0, 8))
            r = attempt(cls, bytes(b))
            tried += 1
            if not isinstance(r, areakit.FormatError):
                r.to_bytes()  # a model that reads also encodes, or raises EncodeError
    assert tried > 100
    # Nearly every cut is an error; the empty input always is.
    assert errors >= len(smallest(formats))
    assert isinstance(attempt(cls, b""), areakit.FormatError)


@pytest.mark.parametrize("cls,formats", TEXT, ids=[c[0].__name__ for c in TEXT])
def test_text_garbage(cls, formats):
    errors = 0
    for path in smallest(formats):
        data = path.read_bytes()
        for junk in (b"\xff\xfe\x00garbage", b"\x00" * 64, data[: len(data) // 3] + b"\x80\x81\n", b"beginlayout\nroomcount -5\n"):
            r = attempt(cls, junk)
            if isinstance(r, areakit.FormatError):
                errors += 1
                assert r.line is not None or r.offset is not None or r.kind, r
    assert errors > 0


def test_text_errors_name_line_and_column():
    with pytest.raises(areakit.FormatError) as e:
        areakit.Lyt.read(b"beginlayout\nroomcount 2\nfoo 1 2\n")
    assert (e.value.line, e.value.column, e.value.offset) == (3, 8, None)
    assert e.value.message == "room line ends early: expected z"
    assert str(e.value) == "<bytes>: 3:8: room line ends early: expected z"


def test_random_garbage_every_class():
    rng = np.random.default_rng(5)
    classes = [areakit.Bwm, areakit.Trx, areakit.Gff, areakit.TwoDa, areakit.Erf, areakit.Rim,
               areakit.Key, areakit.Bif, areakit.Lyt, areakit.Vis, areakit.MdlAscii]
    for cls in classes:
        for n in (0, 7, 64, 4096):
            attempt(cls, rng.integers(0, 256, n, dtype=np.uint8).tobytes())
        # Right magic, garbage after it.
        for magic in (b"BWM V1.0", b"NWN2", b"GFF V3.2", b"2DA V2.b", b"ERF V1.0", b"RIM V1.0", b"KEY V1  ", b"BIFFV1  "):
            attempt(cls, magic + rng.integers(0, 256, 200, dtype=np.uint8).tobytes())
            attempt(cls, magic + b"\xff" * 200)


def test_huge_counts_do_not_allocate():
    """A header announcing 2**32-1 vertices in a 200-byte file is an error, not a MemoryError."""
    data = bytearray(areakit.Bwm.read(smallest(("wok",), 1)[0]).to_bytes())
    for off in range(0x48, 0x88, 4):  # the table counts and offsets of the BWM header
        b = bytearray(data)
        b[off:off + 4] = b"\xff\xff\xff\xff"
        attempt(areakit.Bwm, bytes(b))


def test_path_errors_are_oserrors(tmp_path):
    with pytest.raises(FileNotFoundError):
        areakit.Bwm.read(tmp_path / "missing.wok")
    with pytest.raises(OSError):
        areakit.Lyt.read(tmp_path)  # a folder given as a file
    with pytest.raises(TypeError):
        areakit.Bwm.read(12345)
    bad = tmp_path / "bad.wok"
    bad.write_bytes(b"BWM V1.0" + b"\x00" * 10)
    with pytest.raises(areakit.FormatError) as e:
        areakit.Bwm.read(bad)
    assert e.value.path == str(bad) and e.value.offset is not None
    assert str(bad) in str(e.value)


def test_bad_arguments_raise_not_crash():
    m = areakit.Bwm.from_arrays([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]])
    for bad in (object(), "text", [[1, 2], [3]]):
        with pytest.raises((TypeError, ValueError)):
            m.face_at(bad, bad)
    with pytest.raises(ValueError):
        m.raycast(np.zeros((2, 3)), np.zeros((3, 3)))
    with pytest.raises(ValueError):
        m.nearest_walkable([1.0, 2.0])
    with pytest.raises(TypeError):
        m.materials = [0.5]
    # NaN and infinities are answered, not crashed on.
    assert m.face_at(float("nan"), 0.0) is None
    assert m.face_at(np.array([np.inf, -np.inf]), np.array([0.0, 0.0])).tolist() == [-1, -1]
    assert m.raycast((0, 0, 0), (0, 0, 0)) is None
