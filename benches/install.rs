//! Resources where they live: listing a 10 000-member capsule (against reading its bytes, in
//! the same run), and opening a 1 GiB synthetic BIF through its KEY and reading one resource
//! (against reading that resource's bytes straight from the file). The BIF is sparse (only its
//! tables and one resource are written), made in a temporary folder and deleted at the end;
//! the bytes each step read are printed before the timings. Run: `cargo bench --bench install`.

use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use areakit_app::install::{Capsule, KeyResources};
use areakit_app::resources::Resources;
use areakit_formats::erf::{self, Erf, ErfKind};
use areakit_formats::key::{self, BifEntry, Key, KeyEntry, ResId};
use areakit_formats::restype::{ResRef, ResType};
use divan::{Bencher, black_box};

const MEMBERS: usize = 10_000;
const BIF_RESOURCES: u32 = 1024;
const RESOURCE_SIZE: u32 = 1 << 20;
const WANTED: u32 = 777;

struct Fixture {
    dir: PathBuf,
    capsule: PathBuf,
    key: PathBuf,
    bif: PathBuf,
    wanted_offset: u64,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let dir =
            std::env::temp_dir().join(format!("areakit-bench-install-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("data")).unwrap();
        // A MOD of 10 000 small members.
        let members = (0..MEMBERS).map(|i| {
            (
                ResRef::new(&format!("res{i:05}")).unwrap(),
                ResType::UTP,
                format!("UTP V3.2 {i}").into_bytes(),
            )
        });
        let capsule = dir.join("big.mod");
        let erf = Erf::from_resources(ErfKind::Mod, members).unwrap();
        std::fs::write(&capsule, erf::write(&erf).unwrap()).unwrap();
        // A sparse 1 GiB BIF: 1024 resources of 1 MiB; only the header, the table and
        // resource WANTED are written.
        let table = 20 + 16 * u64::from(BIF_RESOURCES);
        let data_start = table.next_multiple_of(4096);
        let mut head = Vec::with_capacity(table as usize);
        head.extend_from_slice(b"BIFFV1  ");
        head.extend_from_slice(&BIF_RESOURCES.to_le_bytes());
        head.extend_from_slice(&0u32.to_le_bytes());
        head.extend_from_slice(&20u32.to_le_bytes());
        let mut k = Key::new();
        for i in 0..BIF_RESOURCES {
            let offset = data_start + u64::from(i) * u64::from(RESOURCE_SIZE);
            head.extend_from_slice(&ResId::new(0, i).unwrap().0.to_le_bytes());
            head.extend_from_slice(&(offset as u32).to_le_bytes());
            head.extend_from_slice(&RESOURCE_SIZE.to_le_bytes());
            head.extend_from_slice(&u32::from(ResType::TGA.id()).to_le_bytes());
            k.keys.push(KeyEntry {
                resref: ResRef::new(&format!("tex{i:04}")).unwrap(),
                restype: ResType::TGA,
                id: ResId::new(0, i).unwrap(),
            });
        }
        let len = data_start + u64::from(BIF_RESOURCES) * u64::from(RESOURCE_SIZE);
        let bif = dir.join("data/big.bif");
        let mut f = std::fs::File::create(&bif).unwrap();
        f.set_len(len).unwrap();
        f.write_all(&head).unwrap();
        let wanted_offset = data_start + u64::from(WANTED) * u64::from(RESOURCE_SIZE);
        f.seek(SeekFrom::Start(wanted_offset)).unwrap();
        f.write_all(&vec![0xA5; RESOURCE_SIZE as usize]).unwrap();
        drop(f);
        k.bifs.push(BifEntry::new("data\\big.bif", len as u32, 1));
        let key = dir.join("chitin.key");
        std::fs::write(&key, key::write(&k).unwrap()).unwrap();
        Fixture {
            dir,
            capsule,
            key,
            bif,
            wanted_offset,
        }
    })
}

fn main() {
    let f = fixture();
    let keyres = KeyResources::open(&f.key, &f.dir).unwrap();
    let opened = keyres.bytes_read();
    let r = keyres
        .get(&format!("tex{WANTED:04}"), "tga")
        .unwrap()
        .unwrap();
    assert!(r.data.iter().all(|&b| b == 0xA5));
    eprintln!(
        "1 GiB BIF ({} bytes on disk): opening the KEY and the BIF's tables read {opened} bytes \
         (KEY {} bytes); reading one resource read {} bytes",
        std::fs::metadata(&f.bif).unwrap().len(),
        std::fs::metadata(&f.key).unwrap().len(),
        keyres.bytes_read() - opened
    );
    divan::main();
    let _ = std::fs::remove_dir_all(&f.dir);
}

/// Baseline: reading the capsule's bytes.
#[divan::bench]
fn capsule_10k_read_bytes(b: Bencher) {
    let f = fixture();
    b.bench(|| black_box(std::fs::read(&f.capsule).unwrap()));
}

/// Open the capsule (read it, check its tables) and list every member.
#[divan::bench]
fn capsule_10k_open_and_list(b: Bencher) {
    let f = fixture();
    b.bench(|| {
        let c = Capsule::open(&f.capsule).unwrap();
        black_box(c.list().unwrap().len())
    });
}

/// Baseline: one positioned read of the wanted resource's bytes.
#[divan::bench]
fn bif_1gib_read_bytes(b: Bencher) {
    let f = fixture();
    b.bench(|| {
        let mut file = std::fs::File::open(&f.bif).unwrap();
        file.seek(SeekFrom::Start(f.wanted_offset)).unwrap();
        let mut buf = vec![0; RESOURCE_SIZE as usize];
        file.read_exact(&mut buf).unwrap();
        black_box(buf)
    });
}

/// Open the KEY and the 1 GiB BIF's tables, then read one 1 MiB resource.
#[divan::bench]
fn bif_1gib_open_and_read_one(b: Bencher) {
    let f = fixture();
    b.bench(|| {
        let k = KeyResources::open(&f.key, Path::new(&f.dir)).unwrap();
        black_box(k.get(&format!("tex{WANTED:04}"), "tga").unwrap())
    });
}
