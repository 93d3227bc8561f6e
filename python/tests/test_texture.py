"""areakit.Tpc and areakit.export with textures: every corpus TPC reads and writes back byte for
byte, with the info the CLI gives; ``rgba(mip)`` has the level's shape and agrees with an
independent decode of the uncompressed texture; ``from_rgba`` makes a texture that reads back;
bad bytes raise with an offset; ``export`` embeds a kit room's corpus texture and lists the
rest."""

import areakit
import numpy as np
import pytest

from conftest import CORPUS, corpus_files

K1CP = CORPUS / "kotor" / "KOTORCommunityPatches_K1_Community_Patch" / "tslpatchdata"
KIT = CORPUS / "kotor" / "openkotor_pykotor" / "Tools" / "HolocronToolset" / "src" / "toolset" / "kits"


def test_every_corpus_tpc_round_trips():
    files = corpus_files("tpc")
    assert len(files) == 41
    encodings = {}
    for path in files:
        data = path.read_bytes()
        t = areakit.Tpc.read(data)
        assert t.to_bytes() == data, path.name
        info = t.info()
        assert (info["width"], info["height"], info["encoding"], info["mip_count"]) == (
            t.width,
            t.height,
            t.encoding,
            t.mip_count,
        )
        encodings[t.encoding] = encodings.get(t.encoding, 0) + 1
        assert [f.code for f in t.check() if f.severity == "error"] == []
        for mip in (0, t.mip_count - 1):
            px = t.rgba(mip=mip)
            assert px.dtype == np.uint8
            assert px.shape == (max(1, t.height >> mip), max(1, t.width >> mip), 4)
    assert encodings == {"dxt1": 32, "dxt5": 8, "rgba": 1}


def test_uncompressed_pixels_are_the_stored_bytes():
    t = areakit.Tpc.read(K1CP / "N_GranB.tpc")
    assert t.encoding == "rgba"
    raw = (K1CP / "N_GranB.tpc").read_bytes()[128 : 128 + 512 * 512 * 4]
    assert np.array_equal(t.rgba(), np.frombuffer(raw, np.uint8).reshape(512, 512, 4))
    assert t.txi.startswith("isbumpmap 1")
    with pytest.raises(IndexError):
        t.rgba(mip=10)


def test_from_rgba_makes_textures_that_read_back():
    leaf = areakit.Tpc.read(K1CP / "LKA_leaf02.tpc")
    px = leaf.rgba()
    for encoding, levels in (("dxt5", 10), ("rgba", 10), ("dxt1", 10)):
        t = areakit.Tpc.from_rgba(px, encoding=encoding, txi=leaf.txi)
        back = areakit.Tpc.read(t.to_bytes())
        assert (back.encoding, back.mip_count, back.txi) == (encoding, levels, "blending punchthrough\r\n")
        if encoding == "rgba":
            assert np.array_equal(back.rgba(), px)
        else:
            # DXT1 keeps 1-bit alpha: pixels below half alpha become transparent black.
            kept = px[..., 3] >= 128 if encoding == "dxt1" else np.ones(px.shape[:2], bool)
            diff = np.abs(back.rgba().astype(int) - px.astype(int))[kept]
            # DXT5 blocks decoded and encoded again: close; as DXT1 (other blocks): looser.
            assert diff[:, :3].mean() < (1.0 if encoding == "dxt5" else 4.0), encoding
    one = areakit.Tpc.from_rgba(px[:, :, :3], mipmaps=False)
    assert (one.encoding, one.mip_count) == ("dxt1", 1), "opaque RGB is DXT1"
    with pytest.raises(ValueError):
        areakit.Tpc.from_rgba(px, encoding="bc7")
    with pytest.raises(ValueError):
        areakit.Tpc.from_rgba(np.zeros((4, 4), np.uint8))


def test_bad_bytes_raise_with_an_offset():
    data = (K1CP / "LTS_lotrim11.tpc").read_bytes()
    with pytest.raises(areakit.FormatError) as e:
        areakit.Tpc.read(data[:1000])
    assert e.value.offset == 128
    bad = bytearray(data)
    bad[12] = 9
    with pytest.raises(areakit.FormatError) as e:
        areakit.Tpc.read(bytes(bad))
    assert e.value.kind == "unsupported"


def test_export_embeds_the_textures_found(tmp_path):
    out = tmp_path / "room_1.glb"
    report = areakit.export(KIT / "blackvulkar" / "room_1.mdl", out, textures=[K1CP])
    assert [t["name"] for t in report["textures"]["embedded"]] == ["LTS_lotrim11"]
    assert len(report["textures"]["missing"]) == 24
    assert out.read_bytes()[:4] == b"glTF"
    bare = areakit.export(KIT / "blackvulkar" / "room_1.mdl", tmp_path / "b.glb", no_textures=True)
    assert bare["textures"]["embedded"] == [] and bare["textures"]["missing"] == []
