//! `areakit convert`: arguments and printing; the work is in the library.

use std::path::PathBuf;

use areakit_app::Error;
use areakit_app::choice::value_parser;
use areakit_app::formats::tpc::Encoding;
use areakit_app::session::Session;

use super::{Output, term};

/// `areakit convert`.
#[derive(Debug, clap::Args)]
pub struct ConvertArgs {
    /// The input file.
    pub input: PathBuf,
    /// The output file (never the input).
    pub output: PathBuf,
    /// The output format (default: the input's, or what OUT's extension names):
    /// bwm, lyt, vis, mdl (binary model: writes OUT and its .mdx beside it),
    /// mdl-ascii (alias wok-ascii), trx, tpc, tga, png, txi.
    #[arg(long, value_name = "FORMAT")]
    pub to: Option<String>,
    /// Write normalised text (MDL ASCII) instead of preserving the input's lines.
    #[arg(long)]
    pub canonical: bool,
    /// Node name for a walkmesh decompiled to ASCII (default: the output file's stem).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// A TPC's encoding (default: dxt1 when every pixel is opaque, else dxt5). Given for a TPC
    /// input, re-encodes it.
    #[arg(long, value_name = "ENCODING", ignore_case = true, value_parser = value_parser::<Encoding>())]
    pub encoding: Option<Encoding>,
    /// A TPC with its first level only (default: a full mip chain).
    #[arg(long)]
    pub no_mipmaps: bool,
}

pub fn run(a: ConvertArgs, session: &Session, out: &mut Output) -> Result<u8, Error> {
    let options = areakit_app::document::EncodeOptions {
        canonical: a.canonical,
        name: a.name.clone(),
        texture: areakit_app::formats::tpc::EncodeOptions {
            encoding: a.encoding,
            mipmaps: !a.no_mipmaps,
            ..Default::default()
        },
        txi: None,
        ..Default::default()
    };
    let r =
        areakit_app::ops::convert_file(session, &a.input, &a.output, a.to.as_deref(), &options)?;
    out.line(&format!(
        "{} ({}) -> {} ({}, {} bytes)",
        a.input.display(),
        r.from,
        a.output.display(),
        r.to,
        r.bytes
    ))?;
    for n in &r.notes {
        eprintln!(
            "areakit convert: {}: {}",
            term::field(&a.output.display().to_string()),
            term::field(n)
        );
    }
    Ok(0)
}
