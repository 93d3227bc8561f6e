//! Image conversion with bounded memory (issue 43): the TPC encoder that writes every level
//! straight into its output agrees with the texture model written out, PNG rows widened to
//! RGBA in place are the right pixels for every colour type, and headers asking for more than
//! their file can hold (PNG) or more than areakit decodes (TPC) are refused before the pixels
//! are allocated, with the offset of the size.

use areakit_formats::image::Image;
use areakit_formats::tpc::{self, EncodeOptions, Encoding, Layout, Tpc};
use areakit_formats::{ErrorKind, Location};

fn picture(w: u32, h: u32, alpha: bool) -> Image {
    let mut rgba = Vec::with_capacity((w * h * 4) as usize);
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

const ENCODINGS: [Encoding; 5] = [
    Encoding::Dxt1,
    Encoding::Dxt5,
    Encoding::Rgb,
    Encoding::Rgba,
    Encoding::Grey,
];

/// `tpc::encode` gives the bytes of `Tpc::from_image` written, and those bytes read back as
/// that texture: single images with and without mipmaps (odd sizes too), cube maps, animated
/// frames, every encoding that holds the layout.
#[test]
fn encode_is_the_texture_written() {
    let anim = &b"proceduretype cycle\r\nnumx 4\r\nnumy 2\r\nfps 8\r\n"[..];
    let cases: [(u32, u32, &[u8], Layout); 5] = [
        (32, 16, b"mipmap 1\r\n", Layout::Single),
        (12, 20, b"", Layout::Single),
        (1, 1, b"", Layout::Single),
        (16, 96, b"cube 1\n", Layout::Cube),
        (64, 32, anim, Layout::Animated { numx: 4, numy: 2 }),
    ];
    let mut checked = 0;
    for (w, h, txi, layout) in cases {
        for alpha in [false, true] {
            let img = picture(w, h, alpha);
            for enc in ENCODINGS {
                if layout == Layout::Cube && !enc.is_compressed() {
                    continue;
                }
                for mipmaps in [true, false] {
                    let opts = EncodeOptions {
                        encoding: Some(enc),
                        mipmaps,
                        ..EncodeOptions::default()
                    };
                    let what = format!("{w}x{h} {layout:?} {enc:?} mipmaps {mipmaps}");
                    let made = Tpc::from_image(&img, txi, &opts).unwrap();
                    let bytes = tpc::encode(&img, txi, &opts).unwrap();
                    assert_eq!(made.layout, layout, "{what}");
                    assert_eq!(tpc::write(&made).unwrap(), bytes, "{what}");
                    assert_eq!(tpc::read(&bytes).unwrap(), made, "{what}");
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 2 * 2 * (4 * 5 + 2));
}

/// The encoder's first level of a single image is the picture itself, encoded: RGBA is its
/// bytes, RGB and grey their channels, DXT what `dxt::encode` makes of it.
#[test]
fn the_first_level_is_the_picture() {
    let img = picture(24, 8, true);
    for enc in ENCODINGS {
        let opts = EncodeOptions {
            encoding: Some(enc),
            ..EncodeOptions::default()
        };
        let t = tpc::read(&tpc::encode(&img, b"", &opts).unwrap()).unwrap();
        let first = &t.layers[0][0].data;
        let want: Vec<u8> = match enc {
            Encoding::Rgba => img.rgba.clone(),
            Encoding::Rgb => img
                .rgba
                .chunks_exact(4)
                .flat_map(|p| [p[0], p[1], p[2]])
                .collect(),
            Encoding::Grey => img
                .rgba
                .chunks_exact(4)
                .map(|p| areakit_formats::image::luma(p[0], p[1], p[2]))
                .collect(),
            _ => areakit_formats::dxt::encode(enc.block().unwrap(), &img).unwrap(),
        };
        assert_eq!(first, &want, "{enc:?}");
        // The second level is the first halved.
        let second = t.rgba(0, 1).unwrap();
        if enc == Encoding::Rgba {
            assert_eq!(second, img.half());
        }
        assert_eq!((second.width, second.height), (12, 4));
    }
}

/// A PNG of `colour` at `depth` bits with `data` as its rows.
fn png_of(w: u32, h: u32, colour: png::ColorType, depth: png::BitDepth, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(colour);
    enc.set_depth(depth);
    if colour == png::ColorType::Indexed {
        enc.set_palette(vec![10, 20, 30, 40, 50, 60, 70, 80, 90]);
        enc.set_trns(vec![0, 128]);
    }
    let mut writer = enc.write_header().unwrap();
    writer.write_image_data(data).unwrap();
    writer.finish().unwrap();
    out
}

/// Every colour type comes out as the right RGBA: grey, grey with alpha, RGB, RGBA, indexed
/// with transparency, 16 bits a channel (the high byte kept).
#[test]
fn every_png_colour_type_widens_to_rgba() {
    use png::{BitDepth, ColorType};
    let (w, h) = (3u32, 2u32);
    let grey = [0u8, 50, 100, 150, 200, 250];
    let cases: [(ColorType, BitDepth, Vec<u8>, Vec<u8>); 6] = [
        (
            ColorType::Grayscale,
            BitDepth::Eight,
            grey.to_vec(),
            grey.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        ),
        (
            ColorType::GrayscaleAlpha,
            BitDepth::Eight,
            grey.iter().flat_map(|&g| [g, 255 - g]).collect(),
            grey.iter().flat_map(|&g| [g, g, g, 255 - g]).collect(),
        ),
        (
            ColorType::Rgb,
            BitDepth::Eight,
            grey.iter().flat_map(|&g| [g, g / 2, 7]).collect(),
            grey.iter().flat_map(|&g| [g, g / 2, 7, 255]).collect(),
        ),
        (
            ColorType::Rgba,
            BitDepth::Eight,
            grey.iter().flat_map(|&g| [g, 1, 2, g / 3]).collect(),
            grey.iter().flat_map(|&g| [g, 1, 2, g / 3]).collect(),
        ),
        (
            ColorType::Indexed,
            BitDepth::Eight,
            vec![0, 1, 2, 2, 1, 0],
            vec![
                10, 20, 30, 0, 40, 50, 60, 128, 70, 80, 90, 255, 70, 80, 90, 255, 40, 50, 60, 128,
                10, 20, 30, 0,
            ],
        ),
        (
            ColorType::Rgb,
            BitDepth::Sixteen,
            grey.iter().flat_map(|&g| [g, 9, 1, 2, 3, 4]).collect(),
            grey.iter().flat_map(|&g| [g, 1, 3, 255]).collect(),
        ),
    ];
    for (colour, depth, data, want) in cases {
        let bytes = png_of(w, h, colour, depth, &data);
        let read = areakit_formats::png::read(&bytes).unwrap();
        assert_eq!(read.image.rgba, want, "{colour:?} {depth:?}");
        assert_eq!((read.image.width, read.image.height), (w, h));
    }
    // An odd size, many rows: each row lands where the decoder put it.
    let img = picture(33, 17, false);
    let bytes = areakit_formats::png::write(&img).unwrap();
    assert_eq!(areakit_formats::png::read(&bytes).unwrap().image, img);
}

/// CRC-32 of a PNG chunk (type and data), as the format has it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A PNG whose header says 8192x8192 but whose bytes cannot inflate to that many rows is
/// refused at the width's offset before 256 MiB are allocated; one over the pixel limit too.
#[test]
fn png_sizes_beyond_the_file_or_the_limit_are_refused() {
    let small = png_of(2, 2, png::ColorType::Rgb, png::BitDepth::Eight, &[7; 12]);
    let with_size = |w: u32, h: u32| {
        let mut b = small.clone();
        // IHDR: length at 8, type at 12, width at 16, height at 20, CRC after 13 bytes.
        b[16..20].copy_from_slice(&w.to_be_bytes());
        b[20..24].copy_from_slice(&h.to_be_bytes());
        let crc = crc32(&b[12..29]);
        b[29..33].copy_from_slice(&crc.to_be_bytes());
        b
    };
    let e = areakit_formats::png::read(&with_size(8192, 8192)).unwrap_err();
    assert_eq!(e.location(), Location::Offset(16), "{e}");
    assert!(e.message().contains("inflates to at most"), "{e}");
    let e = areakit_formats::png::read(&with_size(16384, 8192)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::LimitExceeded, "{e}");
    assert_eq!(e.location(), Location::Offset(16), "{e}");
    // The unpatched file reads.
    assert!(areakit_formats::png::read(&with_size(2, 2)).is_ok());
}

/// A TPC level (or its layers stacked) of more than 64 Mi pixels is not decoded: the limit is
/// checked before the RGBA is allocated, and names the header's size.
#[test]
fn tpc_pictures_over_the_limit_are_refused() {
    let mut t = Tpc::from_image(&picture(8, 8, false), b"", &EncodeOptions::default()).unwrap();
    t.layers[0][0].width = 16384;
    t.layers[0][0].height = 8192;
    let e = t.rgba(0, 0).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::LimitExceeded, "{e}");
    assert_eq!(e.location(), Location::Offset(8), "{e}");
    // Two layers of 8192x4096 are 8192x8192 together: at the limit, so the check passes and
    // the level's missing bytes are the error; three are over it.
    let layer = |t: &Tpc| {
        let mut l = t.layers[0].clone();
        l[0].width = 8192;
        l[0].height = 4096;
        l
    };
    let mut two = t.clone();
    two.layers = vec![layer(&t), layer(&t)];
    two.layout = Layout::Cube;
    assert_eq!(two.rgba_all(0).unwrap_err().kind(), ErrorKind::Malformed);
    let mut three = two.clone();
    three.layers.push(layer(&t));
    let e = three.rgba_all(0).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::LimitExceeded, "{e}");
}

/// `rgba_all` of a cube map is its faces stacked, of an animated texture its frames in their
/// grid: the picture they were made from.
#[test]
fn layers_decode_into_one_picture() {
    let cube = picture(16, 96, true);
    let opts = EncodeOptions {
        encoding: Some(Encoding::Dxt5),
        ..EncodeOptions::default()
    };
    let t = tpc::read(&tpc::encode(&cube, b"cube 1\n", &opts).unwrap()).unwrap();
    assert_eq!(t.layout, Layout::Cube);
    let faces: Vec<Image> = (0..6).map(|i| t.rgba(i, 0).unwrap()).collect();
    assert_eq!(t.rgba_all(0).unwrap(), Image::stack(&faces).unwrap());
    let frames = picture(64, 32, false);
    let anim = b"proceduretype cycle\r\nnumx 4\r\nnumy 2\r\nfps 8\r\n";
    let opts = EncodeOptions {
        encoding: Some(Encoding::Rgb),
        ..EncodeOptions::default()
    };
    let t = tpc::read(&tpc::encode(&frames, anim, &opts).unwrap()).unwrap();
    assert_eq!(t.layers.len(), 8);
    assert_eq!(t.rgba_all(0).unwrap(), frames);
    assert_eq!(t.rgba_all(1).unwrap().width, 32);
}
