//! Textured exports: a blackvulkar kit room exported with the corpus textures reachable
//! embeds the images its materials use (the PNG holds the TPC's pixels), lists the textures it
//! cannot find, and the Khronos validator passes; textures are found as the game finds them
//! (override before the module's capsules and the texture packs, TPC before TGA in one
//! place); an OBJ gets its
//! textures beside it.

use crate::common;
use crate::export_import::{glb_json, validate};
use crate::support::run;

use std::path::{Path, PathBuf};

use serde_json::Value;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("areakit-textured-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn os(s: &str) -> &std::ffi::OsStr {
    s.as_ref()
}

fn room_1() -> PathBuf {
    common::corpus_dir().join(
        "kotor/openkotor_pykotor/Tools/HolocronToolset/src/toolset/kits/blackvulkar/room_1.mdl",
    )
}

fn k1cp() -> PathBuf {
    common::corpus_dir().join("kotor/KOTORCommunityPatches_K1_Community_Patch/tslpatchdata")
}

/// `areakit export ... --json`: the report.
fn export(args: &[&std::ffi::OsStr]) -> Value {
    let mut all = vec![os("export")];
    all.extend_from_slice(args);
    all.push(os("--json"));
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "{all:?}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// The bytes of image `i` of a GLB (its buffer view in the BIN chunk).
fn glb_image(path: &Path, json: &Value, i: usize) -> Vec<u8> {
    let data = std::fs::read(path).unwrap();
    let json_len = u32::from_le_bytes(data[12..16].try_into().unwrap()) as usize;
    let bin = &data[20 + json_len + 8..];
    let view = &json["bufferViews"][json["images"][i]["bufferView"].as_u64().unwrap() as usize];
    let off = view["byteOffset"].as_u64().unwrap_or(0) as usize;
    let len = view["byteLength"].as_u64().unwrap() as usize;
    bin[off..off + len].to_vec()
}

#[test]
fn a_kit_room_embeds_the_corpus_texture_it_uses() {
    let dir = tmp("room");
    let glb = dir.join("room_1.glb");
    let report = export(&[
        room_1().as_os_str(),
        os("-o"),
        glb.as_os_str(),
        os("--textures"),
        k1cp().as_os_str(),
    ]);
    let t = &report["textures"];
    let embedded = t["embedded"].as_array().unwrap();
    assert_eq!(embedded.len(), 1, "{t}");
    assert_eq!(embedded[0]["name"], "LTS_lotrim11");
    assert!(
        embedded[0]["origin"]
            .as_str()
            .unwrap()
            .ends_with("LTS_lotrim11.tpc")
    );
    let missing: Vec<&str> = t["missing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(missing.len(), 24, "{missing:?}");
    assert!(missing.contains(&"M10aa_10a_lm0"), "the lightmap is listed");
    assert!(
        report["notes"][0]
            .as_str()
            .unwrap()
            .contains("24 of 25 textures"),
        "{report}"
    );
    let v = glb_json(&glb);
    assert_eq!(v["images"].as_array().unwrap().len(), 1);
    assert_eq!(v["images"][0]["mimeType"], "image/png");
    let textured: Vec<&Value> = v["materials"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["pbrMetallicRoughness"]["baseColorTexture"].is_object())
        .collect();
    assert!(!textured.is_empty());
    assert!(textured.iter().all(|m| m["name"] == "LTS_lotrim11"));
    // The PNG holds the TPC's first level, pixel for pixel.
    let png = areakit_app::formats::png::read(&glb_image(&glb, &v, 0)).unwrap();
    let tpc =
        areakit_app::formats::tpc::read(&std::fs::read(k1cp().join("LTS_lotrim11.tpc")).unwrap())
            .unwrap();
    assert_eq!(png.image, tpc.rgba(0, 0).unwrap());
    // Flat materials keep their texture's name; without --textures nothing is embedded.
    assert!(
        v["materials"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["name"] == "LTS_lobwal02")
    );
    let bare = dir.join("bare.glb");
    let r = export(&[room_1().as_os_str(), os("-o"), bare.as_os_str()]);
    assert_eq!(r["textures"]["embedded"].as_array().unwrap().len(), 0);
    let off = dir.join("off.glb");
    let r = export(&[
        room_1().as_os_str(),
        os("-o"),
        off.as_os_str(),
        os("--no-textures"),
        os("--textures"),
        k1cp().as_os_str(),
    ]);
    assert!(r["textures"]["missing"].as_array().unwrap().is_empty());
    assert!(glb_json(&off)["images"].is_null());
    validate(&[glb, bare, off]);
}

/// A 4x4 TGA of one colour.
fn solid_tga(path: &Path, rgba: [u8; 4]) {
    use areakit_app::formats::tga;
    let img = tga::Tga {
        width: 4,
        height: 4,
        rgba: rgba.repeat(16),
    };
    std::fs::write(
        path,
        tga::write(&img, tga::WriteOptions::default()).unwrap(),
    )
    .unwrap();
}

#[test]
fn textures_are_found_as_the_game_finds_them() {
    let dir = tmp("game");
    let game = dir.join("game");
    let over = game.join("override");
    std::fs::create_dir_all(&over).unwrap();
    std::fs::create_dir_all(game.join("modules")).unwrap();
    // The module's capsule holds the TPC; override a TGA of the same name (red), and a TPC
    // and a TGA of a second name.
    let members = dir.join("members");
    std::fs::create_dir_all(&members).unwrap();
    std::fs::copy(
        k1cp().join("LTS_lotrim11.tpc"),
        members.join("lts_lotrim11.tpc"),
    )
    .unwrap();
    let (code, _, err) = run(&[
        os("pack"),
        members.as_os_str(),
        os("-o"),
        game.join("modules/tex01.mod").as_os_str(),
    ]);
    assert_eq!(code, 0, "{err}");
    solid_tga(&over.join("LTS_lotrim11.tga"), [255, 0, 0, 255]);
    solid_tga(&over.join("lts_lobwal02.tga"), [0, 0, 255, 255]);
    std::fs::copy(
        k1cp().join("N_TwilekMD01.tpc"),
        over.join("lts_lobwal02.tpc"),
    )
    .unwrap();
    // The texture pack: a texture found nowhere else, and one override replaces.
    let pack = dir.join("pack");
    std::fs::create_dir_all(&pack).unwrap();
    std::fs::copy(k1cp().join("PFHA04d.tpc"), pack.join("lts_lobwal01.tpc")).unwrap();
    std::fs::copy(
        k1cp().join("LTS_lotrim11.tpc"),
        pack.join("lts_lotrim11.tpc"),
    )
    .unwrap();
    std::fs::create_dir_all(game.join("TexturePacks")).unwrap();
    let (code, _, err) = run(&[
        os("pack"),
        pack.as_os_str(),
        os("-o"),
        game.join("TexturePacks/swpc_tex_tpa.erf").as_os_str(),
    ]);
    assert_eq!(code, 0, "{err}");
    let glb = dir.join("room.glb");
    let r = export(&[
        os("--game"),
        game.as_os_str(),
        os("--module"),
        os("tex01"),
        room_1().as_os_str(),
        os("-o"),
        glb.as_os_str(),
    ]);
    let origin = |name: &str| -> String {
        r["textures"]["embedded"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name)
            .unwrap_or_else(|| panic!("{name} embedded: {r}"))["origin"]
            .as_str()
            .unwrap()
            .replace('\\', "/")
    };
    assert!(
        origin("LTS_lotrim11").ends_with("override/LTS_lotrim11.tga"),
        "override first"
    );
    assert!(
        origin("LTS_lobwal02").ends_with("override/lts_lobwal02.tpc"),
        "TPC before TGA"
    );
    assert!(
        origin("LTS_lobwal01").ends_with("TexturePacks/swpc_tex_tpa.erf/lts_lobwal01.tpc"),
        "the texture pack: {}",
        origin("LTS_lobwal01")
    );
    // `ls` lists the pack's members with the module's and override's.
    let (code, out, err) = run(&[
        os("ls"),
        os("--game"),
        game.as_os_str(),
        os("--module"),
        os("tex01"),
        os("--type"),
        os("tpc"),
        os("--json"),
    ]);
    assert_eq!(code, 0, "{err}");
    let listed: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(listed["count"], 3, "{listed}");
    let places = r["textures"]["places"].as_array().unwrap();
    assert!(places.last().unwrap().as_str().unwrap().ends_with("game"));
    validate(&[glb]);
}

#[test]
fn an_obj_gets_its_textures_beside_it() {
    let dir = tmp("obj");
    let obj = dir.join("room_1.obj");
    let r = export(&[
        room_1().as_os_str(),
        os("-o"),
        obj.as_os_str(),
        os("--textures"),
        k1cp().as_os_str(),
    ]);
    let written: Vec<&str> = r["written"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert_eq!(written.len(), 3, "{written:?}");
    let mtl = std::fs::read_to_string(dir.join("room_1.mtl")).unwrap();
    assert!(mtl.contains("map_Kd lts_lotrim11.png"), "{mtl}");
    let png =
        areakit_app::formats::png::read(&std::fs::read(dir.join("lts_lotrim11.png")).unwrap())
            .unwrap();
    assert_eq!((png.image.width, png.image.height), (512, 512));
}

/// The 3-D view's GIT objects: a module (the fixture: the demo area with a GIT placeable
/// whose model is `plc_fccage2`, and a door) with a room model for `demo_a` and a model for the
/// placeable: the placeable is drawn by its model (a mesh of its own, placed), the door by a
/// box; a model file opens in 3-D too, an area without room models and `--2d` in 2-D.
#[test]
fn the_3d_view_draws_objects_by_their_models_or_boxes() {
    let dir = tmp("objects");
    crate::common::module_fixture::build_module(&dir, [1.5, 1.5, 0.0]);
    let module = dir.join("mod");
    let kit = room_1().parent().unwrap().to_path_buf();
    let starmap = common::corpus_files(&["mdl-bin"])
        .into_iter()
        .find(|p| p.ends_with("plc_starmap.mdl"))
        .unwrap();
    let view = |input: &Path, page: &Path, two_d: bool| {
        areakit_app::view3d::view(
            &areakit_app::Session::files_only(),
            input,
            page,
            &areakit_app::picture::Overlays::default(),
            &areakit_app::view3d::ViewOptions {
                two_d,
                ..Default::default()
            },
        )
        .unwrap()
        .0
    };
    // No room model yet: the 2-D map.
    assert_eq!(view(&module, &dir.join("a.html"), false).mode, "2d");
    for ext in ["mdl", "mdx"] {
        std::fs::copy(
            kit.join(format!("room_1.{ext}")),
            module.join(format!("demo_a.{ext}")),
        )
        .unwrap();
        std::fs::copy(
            starmap.with_extension(ext),
            module.join(format!("plc_fccage2.{ext}")),
        )
        .unwrap();
    }
    let page = dir.join("b.html");
    let r = view(&module, &page, false);
    assert_eq!(r.mode, "3d");
    assert!(r.objects >= 2, "{r:?}");
    assert!(r.object_models >= 1, "the cage's model found: {r:?}");
    assert!(r.object_models < r.objects, "the rest are boxes: {r:?}");
    let html = std::fs::read_to_string(&page).unwrap();
    let start = html
        .find(r#"<script id="areakit-3d" type="application/json">"#)
        .unwrap();
    let json = &html[start..];
    let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
    let v: Value = serde_json::from_str(json).unwrap();
    let objects = v["objects"].as_array().unwrap();
    let found: Vec<&Value> = objects
        .iter()
        .filter(|o| o["model_found"] == true)
        .collect();
    assert_eq!(found.len(), r.object_models);
    assert!(
        found.iter().all(|o| o["model"] == "plc_fccage2"),
        "{found:?}"
    );
    let meshes = v["meshes"].as_array().unwrap();
    assert!(meshes.iter().any(|m| m["room"] == 0), "demo_a's model");
    assert!(
        meshes.iter().any(|m| m["object"].is_number()),
        "the placeable's model"
    );
    assert!(
        objects
            .iter()
            .any(|o| o["kind"] == "door" && o["model_found"] == false)
    );
    assert_eq!(v["vis"]["present"], true);
    assert_eq!(v["walkmesh"]["rooms"].as_array().unwrap().len(), 3);
    assert_eq!(view(&module, &dir.join("c.html"), true).mode, "2d");
    // A model file alone.
    let m = view(&room_1(), &dir.join("d.html"), false);
    assert_eq!((m.mode, m.rooms, m.objects), ("3d", 0, 0));
    assert!(m.triangles > 1000, "{m:?}");
}
