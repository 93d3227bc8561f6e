//! Windows-1252, the code page of the games' 2DA bytes, as a bijection over all 256 byte values.
//!
//! Bytes `0x80..=0x9F` decode to the characters Windows-1252 assigns them (`0x92` → `’`,
//! `0x80` → `€`); the five bytes it leaves undefined (`0x81`, `0x8D`, `0x8F`, `0x90`, `0x9D`)
//! decode to the C1 control of the same value, as the WHATWG `windows-1252` decoder does. Every
//! other byte is its Latin-1 character. So every input decodes, and text decoded here encodes
//! back to the same bytes.

use crate::error::EncodeError;

/// The characters of bytes `0x80..=0x9F`.
const HIGH: [char; 32] = [
    '\u{20AC}', '\u{0081}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{008D}', '\u{017D}', '\u{008F}',
    '\u{0090}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{009D}', '\u{017E}', '\u{0178}',
];

/// The character of one byte.
pub(crate) fn decode_byte(b: u8) -> char {
    match b {
        0x80..=0x9F => HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

/// Decodes bytes (never fails).
pub(crate) fn decode(bytes: &[u8]) -> String {
    if bytes.is_ascii() {
        // ASCII is the same in every encoding here: skip the per-char work.
        return bytes.iter().map(|&b| char::from(b)).collect();
    }
    bytes.iter().map(|&b| decode_byte(b)).collect()
}

/// The byte of one character, if Windows-1252 (as decoded here) has it.
pub(crate) fn encode_char(c: char) -> Option<u8> {
    let v = u32::from(c);
    match v {
        0..=0x7F | 0xA0..=0xFF => u8::try_from(v).ok(),
        0x81 | 0x8D | 0x8F | 0x90 | 0x9D => u8::try_from(v).ok(),
        _ => HIGH
            .iter()
            .position(|&h| h == c)
            .and_then(|i| u8::try_from(0x80 + i).ok()),
    }
}

/// Appends the encoding of `text` to `out`; `what` names the value for the error.
pub(crate) fn encode_into(
    text: &str,
    out: &mut Vec<u8>,
    what: &dyn Fn() -> String,
) -> Result<(), EncodeError> {
    if text.is_ascii() {
        out.extend_from_slice(text.as_bytes());
        return Ok(());
    }
    for c in text.chars() {
        match encode_char(c) {
            Some(b) => out.push(b),
            None => {
                return Err(EncodeError(format!(
                    "{}: character {c:?} has no Windows-1252 byte",
                    what()
                )));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_round_trips() {
        let bytes: Vec<u8> = (0..=255).collect();
        let text = decode(&bytes);
        assert_eq!(text.chars().count(), 256);
        let mut out = Vec::new();
        encode_into(&text, &mut out, &|| "t".into()).unwrap();
        assert_eq!(out, bytes);
    }

    #[test]
    fn known_characters() {
        assert_eq!(decode(&[0x92, 0x80, 0xE9]), "’€é");
        assert_eq!(encode_char('’'), Some(0x92));
        assert_eq!(
            encode_char('\u{80}'),
            None,
            "U+0080 is not a Windows-1252 character"
        );
        assert_eq!(encode_char('\u{81}'), Some(0x81));
        assert_eq!(encode_char('中'), None);
        let mut out = Vec::new();
        assert!(encode_into("a中", &mut out, &|| "cell".into()).is_err());
    }
}
