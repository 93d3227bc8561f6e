"""Shared test helpers: the real-file corpus in ../shared/corpus (beside the checkout; never
copied into the repository), listed by the format column of its SOURCES.tsv."""

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("AREAKIT_CORPUS", REPO.parent / "shared" / "corpus"))


def corpus_files(*formats):
    """Every corpus file whose format is one of ``formats``, sorted. Fails (never skips)
    when the corpus is missing: a corpus test must not pass on an empty folder."""
    sources = CORPUS / "SOURCES.tsv"
    if not sources.is_file():
        pytest.fail(f"{sources} is missing: the corpus tests need ../shared/corpus")
    lines = sources.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    fi, fo = header.index("file"), header.index("format")
    out = []
    for line in lines[1:]:
        cols = line.split("\t")
        if cols[fo] in formats:
            out.append(CORPUS / cols[fi])
    return sorted(out)


def is_corrupted(path):
    """PyKotor's deliberately broken test files."""
    return "corrupted" in path.name
