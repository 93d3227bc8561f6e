"""The typing stub against the native module: each ``Literal`` alias of a named choice lists
exactly the names the library's one table (``areakit.CHOICES``) gives, and every name of that
table is accepted by the keyword it belongs to, while an unknown one is refused with the list."""

import ast
import pathlib

import pytest

import areakit

STUB = pathlib.Path(areakit.__file__).with_name("__init__.pyi")
ALIASES = {"mode": "PathMode", "corner_graph": "CornerGraph", "mirror": "Mirror", "encoding": "Encoding"}


def stub_literals():
    out = {}
    for node in ast.parse(STUB.read_text()).body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Subscript)
            and getattr(node.value.value, "id", None) == "Literal"
        ):
            elts = node.value.slice.elts if isinstance(node.value.slice, ast.Tuple) else [node.value.slice]
            out[node.targets[0].id] = [e.value for e in elts]
    return out


def test_the_stub_lists_the_names_of_the_library():
    literals = stub_literals()
    assert sorted(areakit.CHOICES) == sorted(ALIASES)
    for what, alias in ALIASES.items():
        assert literals[alias] == areakit.CHOICES[what], what


def test_every_name_is_taken_and_a_stranger_refused(tmp_path):
    wok = tmp_path / "sq.wok"
    sq = areakit.Bwm.from_arrays(
        [[0, 0, 0], [10, 0, 0], [10, 10, 0], [0, 10, 0]], [[0, 1, 2], [0, 2, 3]], [1, 1]
    )
    sq.write(wok)
    for mode in areakit.CHOICES["mode"]:
        if mode != "baked":
            assert areakit.path(wok, (1, 1), (9, 9), mode=mode.upper()).found
    with pytest.raises(ValueError, match='baked mode needs an NWN2 TRX'):
        areakit.path(wok, (1, 1), (9, 9), mode="baked")
    for when in areakit.CHOICES["corner_graph"]:
        assert areakit.paths(wok, [((1, 1), (9, 9))], corner_graph=when)[0].found
    with pytest.raises(ValueError, match='corner_graph "sometimes": expected auto, yes or no'):
        areakit.paths(wok, [((1, 1), (9, 9))], corner_graph="sometimes")
    with pytest.raises(ValueError, match="landmarks 9: expected 0 to 8"):
        areakit.paths(wok, [((1, 1), (9, 9))], landmarks=9)
    with pytest.raises(ValueError, match="radius -1: expected a distance >= 0"):
        areakit.path(wok, (1, 1), (9, 9), radius=-1)
    for axis, flipped in zip(areakit.CHOICES["mirror"], [(-10, 0), (0, -10)]):
        lo = sq.transform(mirror=axis.upper()).bounds[0]
        assert (lo[0], lo[1]) == flipped, axis
    with pytest.raises(ValueError, match='mirror "z": expected x or y'):
        sq.transform(mirror="z")
    import numpy as np

    pixels = np.zeros((4, 4, 4), dtype=np.uint8)
    for enc in areakit.CHOICES["encoding"]:
        assert areakit.Tpc.from_rgba(pixels, encoding=enc).encoding == enc
    with pytest.raises(ValueError, match='encoding "bgra-swizzled": expected dxt1, dxt5, rgb, rgba or grey'):
        areakit.Tpc.from_rgba(pixels, encoding="bgra-swizzled")
