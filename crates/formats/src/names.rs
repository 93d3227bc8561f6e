//! The one rule for a name from a file that becomes a file name: a resource name from a KEY,
//! a BIF, an ERF or RIM member, or the `file` of a capsule manifest.
//!
//! A name passes [`file_name_problem`] only when it is a plain file name on every system the
//! games run on and areakit writes to: printable ASCII (and spaces), no path separator, no drive
//! letter or other character Windows refuses (`<>:"|?*`), no leading dot (a hidden file, and
//! `.`/`..`), no trailing dot or space (Windows drops them), no reserved device name (`CON`,
//! `NUL`, `COM1`, ... with any extension) and at most 255 bytes. Whoever writes a file under
//! such a name calls it first and renames what fails; `check` reports the same names
//! (`capsule-unsafe-name`).

/// Why a name cannot be used as a file name as it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnsafeName {
    /// The name is empty (or is only an extension).
    #[error("the name is empty")]
    Empty,
    /// It holds a path separator (`/` or `\`).
    #[error("it holds a path separator (/ or \\)")]
    Separator,
    /// It starts with a dot: a hidden file, `.` or `..`.
    #[error("it starts with a dot (a hidden file, . or ..)")]
    LeadingDot,
    /// It holds a control character (C0, DEL or C1) or NUL.
    #[error("it holds the control character U+{:04X}", *.0 as u32)]
    Control(char),
    /// It holds a character that is not printable ASCII.
    #[error("it holds U+{:04X}, which is not printable ASCII", *.0 as u32)]
    NotAscii(char),
    /// It holds a character Windows refuses in a file name (`<>:"|?*`; `:` makes a drive
    /// letter or a stream).
    #[error("it holds {0:?}, which Windows refuses in a file name")]
    Reserved(char),
    /// Its stem is a device name (`CON`, `PRN`, `AUX`, `NUL`, `COM1`-`COM9`, `LPT1`-`LPT9`).
    #[error("{0} is a reserved device name")]
    Device(String),
    /// It ends in a dot or a space, which Windows drops.
    #[error("it ends in a dot or a space")]
    Trailing,
    /// It is longer than 255 bytes.
    #[error("it is {0} bytes long (at most 255)")]
    TooLong(usize),
}

/// Device names Windows reserves in every folder, whatever the extension.
const DEVICES: [&str; 4] = ["CON", "PRN", "AUX", "NUL"];

/// What keeps `name` (`resref.ext`) from being a plain file name, or `None` when it is one.
///
/// ```
/// use areakit_formats::names::{file_name_problem, UnsafeName};
/// assert_eq!(file_name_problem("m13aa_01a.wok"), None);
/// assert_eq!(file_name_problem("../../x.utw"), Some(UnsafeName::Separator));
/// assert_eq!(file_name_problem("..utw"), Some(UnsafeName::LeadingDot));
/// assert_eq!(file_name_problem("a/b.utw"), Some(UnsafeName::Separator));
/// assert_eq!(file_name_problem("con.utc"), Some(UnsafeName::Device("CON".into())));
/// ```
pub fn file_name_problem(name: &str) -> Option<UnsafeName> {
    if name.len() > 255 {
        return Some(UnsafeName::TooLong(name.len()));
    }
    let stem = name.split('.').next().unwrap_or_default();
    if name.is_empty() {
        return Some(UnsafeName::Empty);
    }
    if name.contains(['/', '\\']) {
        return Some(UnsafeName::Separator);
    }
    if name.starts_with('.') {
        return Some(UnsafeName::LeadingDot);
    }
    for c in name.chars() {
        if c.is_control() {
            return Some(UnsafeName::Control(c));
        }
        if !c.is_ascii() {
            return Some(UnsafeName::NotAscii(c));
        }
        if matches!(c, '<' | '>' | ':' | '"' | '|' | '?' | '*') {
            return Some(UnsafeName::Reserved(c));
        }
    }
    if name.ends_with(['.', ' ']) {
        return Some(UnsafeName::Trailing);
    }
    let upper = stem.trim_end().to_ascii_uppercase();
    let numbered = upper.len() == 4
        && (upper.starts_with("COM") || upper.starts_with("LPT"))
        && matches!(upper.as_bytes()[3], b'1'..=b'9');
    if DEVICES.contains(&upper.as_str()) || numbered {
        return Some(UnsafeName::Device(upper));
    }
    None
}

/// `name` when it is a plain file name, else `fallback()`; with the reason it was replaced.
pub fn safe_file_name(
    name: &str,
    fallback: impl FnOnce() -> String,
) -> (String, Option<UnsafeName>) {
    match file_name_problem(name) {
        None => (name.to_string(), None),
        Some(p) => (fallback(), Some(p)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_pass() {
        for n in [
            "m13aa.are",
            "a b.utc",
            "x_1-2~3.2da",
            "tile (1).tga",
            "123.4321",
        ] {
            assert_eq!(file_name_problem(n), None, "{n}");
        }
    }

    #[test]
    fn every_escape_and_hazard_is_refused() {
        let cases: &[(&str, UnsafeName)] = &[
            ("", UnsafeName::Empty),
            ("../../../x.utw", UnsafeName::Separator),
            ("..", UnsafeName::LeadingDot),
            (".hidden.utc", UnsafeName::LeadingDot),
            ("/tmp/x.utw", UnsafeName::Separator),
            ("a\\b.utw", UnsafeName::Separator),
            ("C:x.utw", UnsafeName::Reserved(':')),
            ("a\0b.utw", UnsafeName::Control('\0')),
            ("a\u{1b}[2J.utw", UnsafeName::Control('\u{1b}')),
            ("a\nb.utw", UnsafeName::Control('\n')),
            ("a\u{7f}.utw", UnsafeName::Control('\u{7f}')),
            ("a\u{85}.utw", UnsafeName::Control('\u{85}')),
            ("caf\u{e9}.utw", UnsafeName::NotAscii('\u{e9}')),
            ("x\u{fffd}.utw", UnsafeName::NotAscii('\u{fffd}')),
            ("CON.utc", UnsafeName::Device("CON".into())),
            ("nul", UnsafeName::Device("NUL".into())),
            ("com1.2da", UnsafeName::Device("COM1".into())),
            ("Lpt9.txt", UnsafeName::Device("LPT9".into())),
            ("a.", UnsafeName::Trailing),
            ("a ", UnsafeName::Trailing),
            ("a?.utc", UnsafeName::Reserved('?')),
        ];
        for (n, want) in cases {
            assert_eq!(file_name_problem(n).as_ref(), Some(want), "{n:?}");
        }
        assert_eq!(
            file_name_problem(&"a".repeat(256)),
            Some(UnsafeName::TooLong(256))
        );
        // Not devices: longer stems, COM0.
        for n in ["console.utc", "com0.utc", "comx.utc", "nul1.utc"] {
            assert_eq!(file_name_problem(n), None, "{n}");
        }
    }

    #[test]
    fn the_fallback_replaces_only_unsafe_names() {
        let (n, p) = safe_file_name("ok.utc", || unreachable!());
        assert_eq!((n.as_str(), p), ("ok.utc", None));
        let (n, p) = safe_file_name("../x.utc", || "member3.utc".into());
        assert_eq!(n, "member3.utc");
        assert_eq!(p, Some(UnsafeName::Separator));
    }
}
