"""The command line and the Python classes open every file the same way (one detection, one
decoder call in areakit-app): on corpus mutants of every format a class reads (a fixed seed,
1 000 per format: truncations, byte flips, size words edited, bytes inserted and deleted),
``Class.read(path)`` raises ``FormatError`` exactly when ``areakit check`` reports the file as
not decoding (``invalid-file`` / ``unsupported-file``), with the same message; ``areakit info``
exits 1 on the same files (a sample). The mutants are made here, in a temporary folder; no corpus
file is copied into the repository."""

import json
import subprocess

import areakit
import numpy as np
import pytest

from conftest import corpus_files, is_corrupted
from test_agreement import cli  # noqa: F401  (the fixture: the areakit binary)

PER_FORMAT = 1000

CLASSES = [
    ("bwm", areakit.Bwm, ("wok", "pwk", "bwm"), False),
    ("lyt", areakit.Lyt, ("lyt",), False),
    ("vis", areakit.Vis, ("vis",), False),
    ("mdl-ascii", areakit.MdlAscii, ("mdl-ascii", "wok-ascii", "pwk-ascii"), False),
    ("mdl", areakit.Mdl, ("mdl-bin",), False),
    ("mdx", areakit.Mdl, ("mdl-bin",), True),
    ("nwn-mdl", areakit.Mdl, ("nwn-mdl-bin",), False),
    ("trx", areakit.Trx, ("trx", "trn"), False),
    ("gff", areakit.Gff, ("gff", "nwn2-are"), False),
    ("2da", areakit.TwoDa, ("2da",), False),
    ("erf", areakit.Erf, ("erf",), False),
    ("rim", areakit.Rim, ("rim",), False),
    ("tpc", areakit.Tpc, ("tpc",), False),
]


def sources(formats, mdx):
    files = [p for p in corpus_files(*formats) if not is_corrupted(p)]
    if mdx:
        files = [p for p in files if p.with_suffix(".mdx").stat().st_size > 0]
    files.sort(key=lambda p: p.stat().st_size)
    assert files, formats
    return files[:3]


def mutate(data, i, rng):
    """Mutant ``i`` of ``data``: a fifth each of cuts, bit flips, header words edited,
    insertions and deletions."""
    n = len(data)
    b = bytearray(data)
    kind = i % 5
    if kind == 0:
        cut = i // 5 if i // 5 < min(n, 64) else int(rng.integers(0, n))
        return bytes(b[:cut])
    if kind == 1:
        for _ in range(int(rng.integers(1, 5))):
            at = int(rng.integers(0, n))
            b[at] ^= 1 << int(rng.integers(0, 8))
        return bytes(b)
    if kind == 2:
        at = int(rng.integers(0, max(1, min(n, 256) - 3))) & ~3
        v = [0, n, n + 1, max(0, n - 1), int(rng.integers(0, 2**32))][int(rng.integers(0, 5))]
        if at + 4 <= n:
            b[at : at + 4] = (v % 2**32).to_bytes(4, "little")
        return bytes(b)
    if kind == 3:
        at = int(rng.integers(0, n + 1))
        k = int(rng.integers(1, 9))
        return bytes(b[:at]) + rng.integers(0, 256, k, dtype=np.uint8).tobytes() + bytes(b[at:])
    at = int(rng.integers(0, n))
    k = min(int(rng.integers(1, 9)), n - at)
    return bytes(b[:at] + b[at + k :])


def write_mutants(root, name, formats, mdx, rng):
    """Writes the mutants, each in its own folder under its corpus name (a binary model with
    its MDX beside it, one of the two mutated); returns their paths."""
    files = sources(formats, mdx)
    per_file = -(-PER_FORMAT // len(files))
    out = []
    for src in files:
        target = src.with_suffix(".mdx") if mdx else src
        data = target.read_bytes()
        has_mdx = src.suffix.lower() == ".mdl" and src.with_suffix(".mdx").is_file()
        for i in range(per_file):
            d = root / name / f"{len(out)}"
            d.mkdir(parents=True)
            path = d / src.name
            bytes_ = mutate(data, i, rng)
            if mdx:
                path.write_bytes(src.read_bytes())
                path.with_suffix(".mdx").write_bytes(bytes_)
            else:
                path.write_bytes(bytes_)
                if has_mdx:
                    path.with_suffix(".mdx").write_bytes(src.with_suffix(".mdx").read_bytes())
            out.append(path)
    return out


def python_verdict(cls, path):
    """None when the class reads the file, else the FormatError's message."""
    try:
        cls.read(str(path))
        return None
    except areakit.FormatError as e:
        return e.message


def test_cli_and_python_succeed_and_fail_together_on_corpus_mutants(tmp_path, cli):
    rng = np.random.default_rng(43)
    cases = []
    for name, cls, formats, mdx in CLASSES:
        for p in write_mutants(tmp_path, name, formats, mdx, rng):
            cases.append((name, cls, p))
    assert len(cases) >= PER_FORMAT * len(CLASSES)
    out = subprocess.run(
        [str(cli), "check", "--json", str(tmp_path)], capture_output=True, check=False
    )
    assert out.returncode in (0, 1), out.stderr.decode()
    report = json.loads(out.stdout)
    decode = {}
    for f in report["findings"]:
        if f["code"] in ("invalid-file", "unsupported-file"):
            decode.setdefault(f["path"], f["message"])
    bad = []
    failed = {}
    other = 0
    for name, cls, p in cases:
        py = python_verdict(cls, p)
        c = decode.get(str(p))
        failed[name] = failed.get(name, 0) + (py is not None)
        if py is not None and c is None and py.startswith("the content is "):
            # Valid as another format (an empty `.mdl` is an empty MDL ASCII model): the
            # command line reads it as that; the class asked for its own format says so.
            other += 1
            continue
        if (py is None) != (c is None):
            bad.append(f"{name} {p}: python {py!r}, check {c!r}")
        elif py is not None and py != c:
            bad.append(f"{name} {p}: python says {py!r}, check says {c!r}")
    print(f"{len(cases)} mutants; failed to read per format: {failed}; {other} valid as another format")
    assert other <= 20, other
    assert not bad, f"{len(bad)} of {len(cases)} disagree:\n" + "\n".join(bad[:30])

    # `areakit info` on a sample: exit 1 exactly when Python's read failed.
    for name, cls, p in cases[::157]:
        r = subprocess.run([str(cli), "info", str(p)], capture_output=True, check=False)
        want = 0 if python_verdict(cls, p) is None else 1
        assert r.returncode == want, (name, str(p), r.stderr.decode())


@pytest.mark.parametrize("cut", [4, 12, 100])
def test_a_cut_compiled_model_is_the_model_decoders_error_in_both(tmp_path, cli, cut):
    src = sources(("mdl-bin",), True)[0]
    path = tmp_path / src.name
    path.write_bytes(src.read_bytes()[:cut])
    path.with_suffix(".mdx").write_bytes(src.with_suffix(".mdx").read_bytes())
    with pytest.raises(areakit.FormatError) as e:
        areakit.Mdl.read(str(path))
    assert "MDL ASCII" not in e.value.message
    r = subprocess.run([str(cli), "check", str(path)], capture_output=True, check=False)
    assert r.returncode == 1
    assert "error[invalid-file]" in r.stdout.decode()
    assert e.value.message in r.stdout.decode()
