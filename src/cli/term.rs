//! Text from files made safe for a terminal. A name, a message or a path that came out of a
//! file may hold ESC sequences, carriage returns, line feeds or C1 controls that would clear the
//! screen or forge a line of output; human output shows them escaped (`\x1b`, `\n`, `\u{85}`),
//! `--json` keeps them exact (JSON escapes what it must).

use std::borrow::Cow;

/// Whether `c` must not reach a terminal raw: C0 controls, DEL, C1 controls, the line and
/// paragraph separators and the bidirectional overrides and isolates (which reorder what
/// follows them on the line).
fn hazardous(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn escape(s: &str, keep_newlines: bool) -> Cow<'_, str> {
    let keep = |c: char| (keep_newlines && c == '\n') || c == '\t';
    if !s.chars().any(|c| hazardous(c) && !keep(c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if !hazardous(c) || keep(c) {
            out.push(c);
        } else if (c as u32) < 0x80 {
            match c {
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                c => out.push_str(&format!("\\x{:02x}", c as u32)),
            }
        } else {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        }
    }
    Cow::Owned(out)
}

/// One field of a line (a name, a message, a path): every hazardous character escaped, line
/// breaks included.
pub fn field(s: &str) -> Cow<'_, str> {
    escape(s, false)
}

/// A whole text the binary composed: hazardous characters escaped, its own line breaks kept.
/// (A line break inside a field from a file is escaped by [`field`] where the field is
/// written.)
pub fn text(s: &str) -> Cow<'_, str> {
    escape(s, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_and_plain_text_is_borrowed() {
        assert!(matches!(field("m13aa_01a.wok"), Cow::Borrowed(_)));
        assert_eq!(field("a\u{1b}[2Jb"), "a\\x1b[2Jb");
        assert_eq!(field("x\nareakit: all good"), "x\\nareakit: all good");
        assert_eq!(
            field("cr\rbel\u{7}del\u{7f}nul\0"),
            "cr\\rbel\\x07del\\x7fnul\\x00"
        );
        assert_eq!(field("c1\u{85}\u{9b}"), "c1\\u{85}\\u{9b}");
        assert_eq!(field("bidi\u{202e}x\u{2066}"), "bidi\\u{202e}x\\u{2066}");
        assert_eq!(field("tab\tok, é ok"), "tab\tok, é ok");
        assert_eq!(text("one\ntwo\u{1b}\n"), "one\ntwo\\x1b\n");
    }

    #[test]
    fn no_hazardous_character_survives_either_escape() {
        for cp in (0u32..0x300).chain(0x2000..0x2100) {
            let Some(c) = char::from_u32(cp) else {
                continue;
            };
            let s = format!("a{c}b");
            assert!(
                !field(&s).chars().any(|c| hazardous(c) && c != '\t'),
                "U+{cp:04X} in a field"
            );
            assert!(
                !text(&s)
                    .chars()
                    .any(|c| hazardous(c) && c != '\n' && c != '\t'),
                "U+{cp:04X} in a text"
            );
        }
    }
}
