//! `areakit`: the command line. Parses arguments, calls the library, prints, picks the exit code.
//!
//! Exit codes: 0 success; 1 an input is invalid (or `check` found an error); 2 usage or I/O error.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

mod cli;

fn main() -> ExitCode {
    let code = run();
    report_peak_memory();
    code
}

/// Diagnostics: with `AREAKIT_PEAK_RSS_FILE=PATH` set, the process's peak resident memory
/// (`VmHWM` of `/proc/self/status`, in kB; Linux only) is written to PATH at exit. The hostile
/// input tests use it to bound what any input can make areakit allocate.
fn report_peak_memory() {
    let Some(path) = std::env::var_os("AREAKIT_PEAK_RSS_FILE") else {
        return;
    };
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    if let Some(kb) = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
    {
        let _ = std::fs::write(path, format!("{kb}\n"));
    }
}

fn run() -> ExitCode {
    let args = match cli::args::Cli::try_parse() {
        Ok(a) => a,
        Err(e) if e.use_stderr() => {
            // One line: clap's first line names the problem; the usage is in --help.
            let text = e.to_string();
            let message: Vec<&str> = text
                .lines()
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            let message = message.join(" ");
            let message = message.trim_start_matches("error: ");
            let _ = writeln!(std::io::stderr(), "areakit: {message} (see areakit --help)");
            return ExitCode::from(2);
        }
        Err(e) => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
    };
    let mut out = cli::Output::stdout();
    let result = cli::run(args, &mut out);
    let _ = out.flush();
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            let mut err = std::io::stderr().lock();
            let _ = writeln!(err, "areakit: {}", one_line(&e.to_string()));
            ExitCode::from(e.exit_code())
        }
    }
}

/// Errors are one line each on stderr, with whatever came from a file escaped (a line break
/// in a name can forge no second line, an ESC sequence reaches no terminal).
fn one_line(s: &str) -> String {
    cli::term::field(s).into_owned()
}
