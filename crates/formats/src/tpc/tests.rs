use super::*;
use crate::error::ErrorKind;

fn picture(w: u32, h: u32, alpha: bool) -> Image {
    let mut rgba = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let a = if alpha {
                ((x * 7 + y * 3) % 256) as u8
            } else {
                255
            };
            rgba.extend_from_slice(&[(x * 4) as u8, (y * 4) as u8, ((x ^ y) * 8) as u8, a]);
        }
    }
    Image::new(w, h, rgba).unwrap()
}

fn max_diff(a: &Image, b: &Image) -> u8 {
    assert_eq!((a.width, a.height), (b.width, b.height));
    a.rgba
        .iter()
        .zip(&b.rgba)
        .map(|(x, y)| x.abs_diff(*y))
        .max()
        .unwrap_or(0)
}

#[test]
fn every_encoding_writes_and_reads_back() {
    let img = picture(32, 16, true);
    for enc in [
        Encoding::Dxt1,
        Encoding::Dxt5,
        Encoding::Rgb,
        Encoding::Rgba,
        Encoding::Grey,
    ] {
        let opts = EncodeOptions {
            encoding: Some(enc),
            ..EncodeOptions::default()
        };
        let tpc = Tpc::from_image(&img, b"mipmap 1\r\n", &opts).unwrap();
        assert_eq!(tpc.mip_count(), 6, "{enc:?}: 32x16 down to 1x1");
        assert_eq!(tpc.header.data_size == 0, !enc.is_compressed());
        let bytes = write(&tpc).unwrap();
        let back = read(&bytes).unwrap();
        assert_eq!(back, tpc, "{enc:?}");
        assert_eq!(write(&back).unwrap(), bytes);
        assert!(validate(&back).is_empty(), "{enc:?}: {:?}", validate(&back));
        assert_eq!(back.txi().entries.len(), 1);
        let px = back.rgba(0, 0).unwrap();
        match enc {
            Encoding::Rgba => assert_eq!(px, img),
            Encoding::Rgb => {
                let mut opaque = img.clone();
                opaque.rgba.chunks_exact_mut(4).for_each(|p| p[3] = 255);
                assert_eq!(px, opaque);
            }
            Encoding::Grey => assert!(px.is_grey()),
            _ => {}
        }
        let last = back.rgba(0, 5).unwrap();
        assert_eq!((last.width, last.height), (1, 1));
    }
}

#[test]
fn automatic_encoding_follows_alpha() {
    let opaque = Tpc::from_image(&picture(8, 8, false), b"", &EncodeOptions::default()).unwrap();
    assert_eq!(opaque.encoding, Encoding::Dxt1);
    assert_eq!(opaque.header.encoding, 2);
    let clear = Tpc::from_image(&picture(8, 8, true), b"", &EncodeOptions::default()).unwrap();
    assert_eq!(clear.encoding, Encoding::Dxt5);
    assert_eq!(clear.header.data_size, 64);
    let single = Tpc::from_image(
        &picture(8, 8, true),
        b"",
        &EncodeOptions {
            mipmaps: false,
            ..EncodeOptions::default()
        },
    )
    .unwrap();
    assert_eq!(single.mip_count(), 1);
}

#[test]
fn cube_maps_have_six_faces() {
    let img = picture(8, 48, false);
    let tpc = Tpc::from_image(&img, b"cube 1\n", &EncodeOptions::default()).unwrap();
    assert_eq!(tpc.layout, Layout::Cube);
    assert_eq!(tpc.layers.len(), 6);
    assert_eq!((tpc.width(), tpc.height()), (8, 8));
    assert_eq!(tpc.header.height, 48);
    let back = read(&write(&tpc).unwrap()).unwrap();
    assert_eq!(back, tpc);
    let all = back.rgba_all(0).unwrap();
    assert_eq!((all.width, all.height), (8, 48));
    assert!(max_diff(&all, &img) < 40, "DXT1 of a smooth picture");
    let e = Tpc::from_image(
        &img,
        b"cube 1\n",
        &EncodeOptions {
            encoding: Some(Encoding::Rgba),
            ..EncodeOptions::default()
        },
    )
    .unwrap_err();
    assert!(e.0.contains("cube map"), "{e}");
}

#[test]
fn animated_textures_have_frames_and_find_their_txi() {
    let img = picture(64, 32, false);
    let txi = b"proceduretype cycle\r\nnumx 4\r\nnumy 2\r\nfps 8\r\n";
    for enc in [Encoding::Dxt1, Encoding::Rgb] {
        let tpc = Tpc::from_image(
            &img,
            txi,
            &EncodeOptions {
                encoding: Some(enc),
                ..EncodeOptions::default()
            },
        )
        .unwrap();
        assert_eq!(tpc.layout, Layout::Animated { numx: 4, numy: 2 });
        assert_eq!(tpc.layers.len(), 8);
        assert_eq!((tpc.width(), tpc.height()), (16, 16));
        assert_eq!(tpc.mip_count(), 5);
        let back = read(&write(&tpc).unwrap()).unwrap();
        assert_eq!(back, tpc, "{enc:?}");
        assert!(validate(&back).is_empty(), "{:?}", validate(&back));
        let all = back.rgba_all(0).unwrap();
        assert_eq!((all.width, all.height), (64, 32));
        if enc == Encoding::Rgb {
            assert_eq!(all, img);
        }
    }
}

#[test]
fn frame_counts_past_u32_do_not_overflow() {
    // numx x numy = 4.9e9 frames: more than a u32 holds, and they do not divide the image.
    let img = picture(16, 16, false);
    let txi = b"proceduretype cycle\nnumx 70000\nnumy 70000\nfps 8\n";
    for enc in [Encoding::Dxt1, Encoding::Rgba] {
        let opts = EncodeOptions {
            encoding: Some(enc),
            ..EncodeOptions::default()
        };
        let tpc = Tpc::from_image(&img, txi, &opts).unwrap();
        assert_eq!(tpc.layout, Layout::Single, "{enc:?}");
        let back = read(&write(&tpc).unwrap()).unwrap();
        assert_eq!(back.layout, Layout::Single, "{enc:?}");
        let codes: Vec<&str> = validate(&back).iter().map(|f| f.code).collect();
        assert_eq!(codes, ["tpc-animation-frames"], "{enc:?}");
    }
}

#[test]
fn an_inconsistent_image_is_refused_for_every_encoding() {
    // Public fields: 8x8 pixels but the bytes of 2x2.
    let img = Image {
        width: 8,
        height: 8,
        rgba: vec![255; 16],
    };
    for enc in [
        Encoding::Dxt1,
        Encoding::Dxt5,
        Encoding::Rgba,
        Encoding::Rgb,
        Encoding::Grey,
    ] {
        for mipmaps in [true, false] {
            let opts = EncodeOptions {
                encoding: Some(enc),
                mipmaps,
                ..EncodeOptions::default()
            };
            let e = Tpc::from_image(&img, b"", &opts).unwrap_err();
            assert!(e.0.contains("16 bytes of RGBA"), "{enc:?}: {e}");
        }
        // Frames are cropped from the image, faces too.
        let opts = EncodeOptions {
            encoding: Some(enc),
            ..EncodeOptions::default()
        };
        let anim = b"proceduretype cycle\nnumx 2\nnumy 2\nfps 8\n";
        assert!(Tpc::from_image(&img, anim, &opts).is_err(), "{enc:?}");
    }
}

#[test]
fn short_chains_and_wrong_sizes_are_found() {
    let tpc = Tpc::from_image(&picture(16, 16, false), b"", &EncodeOptions::default()).unwrap();
    let bytes = write(&tpc).unwrap();
    // Drop the last two levels (8 + 8 bytes): three of five remain.
    let short = read(&bytes[..bytes.len() - 16]).unwrap();
    assert_eq!(short.mip_count(), 3);
    assert_eq!(write(&short).unwrap(), &bytes[..bytes.len() - 16]);
    let f = validate(&short);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].code, "tpc-mip-chain-short");
    assert_eq!(f[0].place.offset, Some(bytes.len() as u64 - 16));
    // A data size larger than the first level: read as the engine reads it, and reported.
    let mut big = bytes.clone();
    big[0..4].copy_from_slice(&136u32.to_le_bytes());
    big.extend_from_slice(&[0; 8]);
    let t = read(&big).unwrap();
    assert_eq!(t.layers[0][0].data.len(), 136);
    assert_eq!(write(&t).unwrap(), big);
    let codes: Vec<&str> = validate(&t).iter().map(|f| f.code).collect();
    assert_eq!(codes, ["tpc-data-size"]);
    // Binary bytes after the levels: not TXI text.
    let mut tail = bytes.clone();
    tail.extend_from_slice(&[1, 2, 3]);
    let codes: Vec<&str> = validate(&read(&tail).unwrap())
        .iter()
        .map(|f| f.code)
        .collect();
    assert_eq!(codes, ["txi-unparsed"]);
    // Not a power of two, mipmapped.
    let npot = Tpc::from_image(&picture(12, 8, false), b"", &EncodeOptions::default()).unwrap();
    let codes: Vec<&str> = validate(&npot).iter().map(|f| f.code).collect();
    assert_eq!(codes, ["texture-not-power-of-two"]);
}

#[test]
fn hostile_headers_give_located_errors() {
    assert!(read(&[0; 100]).is_err());
    let tpc = Tpc::from_image(&picture(8, 8, false), b"", &EncodeOptions::default()).unwrap();
    let bytes = write(&tpc).unwrap();
    let mut enc = bytes.clone();
    enc[12] = 7;
    let e = read(&enc).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert_eq!(e.location(), crate::Location::Offset(12));
    let mut zero = bytes.clone();
    zero[8] = 0;
    assert_eq!(
        read(&zero).unwrap_err().location(),
        crate::Location::Offset(8)
    );
    let e = read(&bytes[..130]).unwrap_err();
    assert!(e.message().contains("first level"), "{e}");
    // A huge header over a few bytes allocates nothing large.
    let mut huge = bytes[..HEADER_SIZE].to_vec();
    huge[8..12].copy_from_slice(&[0xff, 0x7f, 0xff, 0x7f]);
    assert!(read(&huge).is_err());
}

#[test]
fn swizzled_bgra_is_deswizzled() {
    // 4x2: stored index of (x, y) interleaves x0, y0, x1.
    assert_eq!(deswizzle_offset(1, 0, 4, 2), 1);
    assert_eq!(deswizzle_offset(0, 1, 4, 2), 2);
    assert_eq!(deswizzle_offset(2, 0, 4, 2), 4);
    assert_eq!(deswizzle_offset(3, 1, 4, 2), 7);
    let mut data = vec![0u8; HEADER_SIZE];
    data[8] = 4;
    data[10] = 2;
    data[12] = encoding_byte::SWIZZLED_BGRA;
    data[13] = 1;
    for i in 0..8u8 {
        data.extend_from_slice(&[i, 0, 100, 255]); // B = stored index
    }
    let t = read(&data).unwrap();
    assert_eq!(t.encoding, Encoding::SwizzledBgra);
    let img = t.rgba(0, 0).unwrap();
    let blue: Vec<u8> = img.rgba.chunks_exact(4).map(|p| p[2]).collect();
    assert_eq!(blue, [0, 1, 4, 5, 2, 3, 6, 7]);
    assert_eq!(img.rgba[0], 100, "R from the third byte");
    assert_eq!(write(&t).unwrap(), data);
}
