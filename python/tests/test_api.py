"""The package's surface: version, exports, docstrings (help() is useful), typing files."""

import inspect
import re
from pathlib import Path

import areakit

CLASSES = [areakit.Bwm, areakit.Lyt, areakit.Vis, areakit.MdlAscii, areakit.Trx, areakit.Area,
           areakit.Gff, areakit.TwoDa, areakit.Erf, areakit.Rim, areakit.Key, areakit.Bif,
           areakit.Finding, areakit.PathResult]


def test_version_is_the_crate_version():
    cargo = (Path(__file__).resolve().parents[1] / "Cargo.toml").read_text()
    assert areakit.__version__ == re.search(r'^version = "([^"]+)"', cargo, re.M).group(1)


def test_exports_and_docstrings():
    for name in areakit.__all__:
        assert hasattr(areakit, name), name
    for cls in CLASSES:
        assert cls.__doc__ and len(cls.__doc__) > 40, cls
        for name, member in inspect.getmembers(cls):
            if name.startswith("_"):
                continue
            assert member.__doc__, f"{cls.__name__}.{name} has no docstring"
    assert ">>>" in areakit.Bwm.__doc__ and ">>>" in areakit.Bwm.face_at.__doc__
    assert issubclass(areakit.FormatError, ValueError)
    assert issubclass(areakit.EncodeError, ValueError)
    assert areakit.check.__doc__ and areakit.path.__doc__


def test_typing_files_are_installed():
    pkg = Path(areakit.__file__).parent
    assert (pkg / "py.typed").is_file()
    stub = (pkg / "__init__.pyi").read_text()
    for cls in CLASSES:
        assert f"class {cls.__name__}" in stub, cls
    for fn in ("def check(", "def check_report(", "def path("):
        assert fn in stub
