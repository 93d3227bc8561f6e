//! Command-line arguments (clap derive). Every command's help ends with an example.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// Read, write, check, repair, convert and query BioWare Aurora-family area data.
#[derive(Debug, Parser)]
#[command(name = "areakit", version, about, long_about = None)]
#[command(
    after_help = "Exit codes: 0 success, 1 invalid input (or check found an error), 2 usage or I/O error.\n\nExample:\n  areakit demo && areakit info areakit-demo/demo_a.wok"
)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Describe a file: its format, counts and bounds.
    #[command(after_help = "Example:\n  areakit info m13aa_01a.wok --json")]
    Info(InfoArgs),
    /// Check files and folders (recursively) for everything wrong with them.
    #[command(
        after_help = "Prints one line per finding (path:location: severity[code]: message) and a summary; codes are documented in docs/checks.md.\nExit 0 when there is no error finding, 1 when there is, 2 for usage or I/O errors.\n\nExample:\n  areakit check ../modules/m13aa --json"
    )]
    Check(CheckArgs),
    /// Re-bake an NWN2 TRN/TRX walkmesh: tile ownership, path tables, islands, island paths.
    #[command(after_help = "Example:\n  areakit bake area01.trn -o area01.trx")]
    Bake(BakeArgs),
    /// Read a file and write it in the same or another format (atomically).
    #[command(
        after_help = "The output keeps the input's format unless --to or an unambiguous extension of OUT names another.\n\nExample:\n  areakit convert m13aa_01a.wok copy.wok"
    )]
    Convert(ConvertArgs),
}

/// `areakit info`.
#[derive(Debug, clap::Args)]
pub struct InfoArgs {
    /// The file to describe.
    pub file: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `areakit check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Files and folders to check.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Print one JSON object `{"files_checked": N, "findings": [...]}`.
    #[arg(long)]
    pub json: bool,
}

/// `areakit convert`.
#[derive(Debug, clap::Args)]
pub struct ConvertArgs {
    /// The input file.
    pub input: PathBuf,
    /// The output file (never the input).
    pub output: PathBuf,
    /// The output format (default: the input's, or what OUT's extension names):
    /// bwm, lyt, vis, mdl-ascii (alias wok-ascii), trx.
    #[arg(long, value_name = "FORMAT")]
    pub to: Option<String>,
    /// Write normalised text (MDL ASCII) instead of preserving the input's lines.
    #[arg(long)]
    pub canonical: bool,
    /// Node name for a walkmesh decompiled to ASCII (default: the output file's stem).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
}

/// `areakit bake`.
#[derive(Debug, clap::Args)]
pub struct BakeArgs {
    /// The TRN or TRX file.
    pub input: PathBuf,
    /// The baked TRX to write (never the input).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Print what was baked as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `areakit demo`.
#[derive(Debug, clap::Args)]
pub struct DemoArgs {
    /// Folder to write the sample area into.
    #[arg(long, default_value = "areakit-demo")]
    pub out: PathBuf,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}
