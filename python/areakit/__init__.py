"""areakit: the area data of BioWare's Aurora-family engines (KotOR 1/2, NWN, NWN2).

Read, write (byte for byte), check, query and navigate walkmeshes (``Bwm``: WOK/PWK/DWK),
layouts (``Lyt``), visibility (``Vis``), areas (``Area``), NWN2 terrain (``Trx``), KotOR
binary models with their MDX (``Mdl``), MDL ASCII models (``MdlAscii``), textures (``Tpc``),
GFF, 2DA and the ERF/MOD/RIM/KEY/BIF capsules; exports to glTF/OBJ with textures
(``export``); builds modules from kit rooms (``build``) and repairs areas
(``Area.relink``, ``Area.generate_vis``, ``Area.minimap``). The same Rust engine as the ``areakit``
command line, with NumPy arrays and batch queries.

>>> import areakit
>>> wok = areakit.Bwm.read("m13aa_01a.wok")
>>> wok.face_at(10.0, 4.5)
>>> [f.code for f in areakit.check(["modules/m13aa"])]

Errors: ``areakit.FormatError`` (a ``ValueError``) with ``.path``, ``.offset`` or
``.line``/``.column`` and ``.message``; ``OSError`` for files that cannot be read.
"""

from ._areakit import (
    CHOICES,
    Area,
    Bif,
    Bwm,
    EncodeError,
    Erf,
    Finding,
    FormatError,
    Gff,
    Key,
    Lyt,
    Mdl,
    MdlAscii,
    PathResult,
    Rim,
    Tpc,
    Trx,
    TwoDa,
    Vis,
    __version__,
    build,
    check,
    check_report,
    export,
    path,
    paths,
)

__all__ = [
    "CHOICES",
    "Area",
    "Bif",
    "Bwm",
    "EncodeError",
    "Erf",
    "Finding",
    "FormatError",
    "Gff",
    "Key",
    "Lyt",
    "Mdl",
    "MdlAscii",
    "PathResult",
    "Rim",
    "Tpc",
    "Trx",
    "TwoDa",
    "Vis",
    "__version__",
    "build",
    "check",
    "check_report",
    "export",
    "path",
    "paths",
]
