//! Lines, tokens and numbers: the allocation-free lexical layer of the MDL ASCII reader. Lines
//! come from the text layer shared with the other text formats (`text_lines`).

pub(crate) use crate::text_lines::{Line, line_at};

#[inline(always)]
pub(crate) fn is_space(b: u8) -> bool {
    // Space, tab, CR, VT, FF: all <= 0x20 and in this mask.
    b <= b' '
        && (1u64 << b) & ((1 << b' ') | (1 << b'\t') | (1 << b'\r') | (1 << 0x0b) | (1 << 0x0c))
            != 0
}

/// Iterator over the whitespace-separated tokens of a line, stopping at a `#` comment.
/// Yields `(offset, token)` with `offset` relative to the start of the slice.
#[derive(Clone)]
pub(crate) struct Tokens<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Tokens<'a> {
    #[inline]
    pub fn new(s: &'a [u8]) -> Self {
        Tokens { s, i: 0 }
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = (usize, &'a [u8]);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let s = self.s;
        let mut i = self.i;
        while i < s.len() && is_space(s[i]) {
            i += 1;
        }
        if i >= s.len() || s[i] == b'#' {
            self.i = s.len();
            return None;
        }
        let start = i;
        while i < s.len() && !is_space(s[i]) && s[i] != b'#' {
            i += 1;
        }
        self.i = i;
        Some((start, &s[start..i]))
    }
}

/// Whether a line holds only whitespace.
#[inline]
pub(crate) fn is_blank(s: &[u8]) -> bool {
    s.iter().all(|&b| is_space(b))
}

/// Whether a token looks like the start of a number (`-`, `+`, `.` or a digit), or is `NaN`.
#[inline]
pub(crate) fn looks_numeric(tok: &[u8]) -> bool {
    match tok.first() {
        Some(b'0'..=b'9') => true,
        Some(b'-' | b'+' | b'.') => {
            tok.len() > 1
                && (matches!(tok[1], b'0'..=b'9' | b'.')
                    || (tok[0] != b'.' && tok[1..].eq_ignore_ascii_case(b"nan")))
        }
        Some(b'n' | b'N') => tok.eq_ignore_ascii_case(b"nan"),
        _ => false,
    }
}

const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Parses a decimal number (optional sign, digits, fraction, exponent) as `str::parse::<f64>`
/// would, using Clinger's fast path when it is exact and the standard library otherwise, with
/// one difference: `as f32` of the result is always the correctly rounded `f32` of the decimal
/// (see [`f32_rounds_right`]), since the models store `f32`. `NaN` (any case, optionally
/// signed) is a number, as Rust and C print it; returns `None` for anything else that is not a
/// plain decimal number (`inf`, hex, trailing garbage).
#[inline(always)]
pub(crate) fn parse_f64(tok: &[u8]) -> Option<f64> {
    parse_f64_nearest(tok).map(|v| f32_rounds_right(tok, v))
}

/// `v`, the nearest `f64` of the decimal `tok`, moved one step toward the decimal when it is
/// exactly halfway between two `f32`s while the decimal is not: rounding the decimal to `f64`
/// and then to `f32` would round twice and could land on the wrong `f32` (`as f32` breaks the
/// tie to even). Such a `v` differs from the nearest `f64` by one unit in its last place.
#[inline]
fn f32_rounds_right(tok: &[u8], v: f64) -> f64 {
    let f = v as f32;
    if f64::from(f) == v || !f.is_finite() {
        return v;
    }
    let other = f32_toward(f, v);
    if (f64::from(f) + f64::from(other)) / 2.0 != v {
        return v;
    }
    let Some(right) = std::str::from_utf8(tok)
        .ok()
        .and_then(|s| s.parse::<f32>().ok())
    else {
        return v;
    };
    if right.to_bits() == f.to_bits() {
        return v;
    }
    // One step toward `right` (away from zero when it is the larger in magnitude).
    let away = f64::from(right).abs() > v.abs();
    f64::from_bits(if away {
        v.to_bits() + 1
    } else {
        v.to_bits() - 1
    })
}

/// The `f32` next to `f` on the side of `target`.
fn f32_toward(f: f32, target: f64) -> f32 {
    if f == 0.0 {
        let tiny = f32::from_bits(1);
        return if target < 0.0 { -tiny } else { tiny };
    }
    let away = (target > f64::from(f)) == (f > 0.0);
    f32::from_bits(if away {
        f.to_bits() + 1
    } else {
        f.to_bits() - 1
    })
}

/// The nearest `f64` of a decimal number, as `str::parse::<f64>` gives it.
#[inline(always)]
fn parse_f64_nearest(tok: &[u8]) -> Option<f64> {
    let n = tok.len();
    let mut i = 0;
    let neg = match tok.first()? {
        b'-' => {
            i = 1;
            true
        }
        b'+' => {
            i = 1;
            false
        }
        _ => false,
    };
    let mut mant: u64 = 0;
    let int_start = i;
    while i < n {
        let d = tok[i].wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        mant = mant.wrapping_mul(10).wrapping_add(u64::from(d));
        i += 1;
    }
    let mut digits = i - int_start;
    let mut frac = 0usize;
    if i < n && tok[i] == b'.' {
        i += 1;
        let frac_start = i;
        while i < n {
            let d = tok[i].wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            mant = mant.wrapping_mul(10).wrapping_add(u64::from(d));
            i += 1;
        }
        frac = i - frac_start;
        digits += frac;
    }
    if digits == 0 {
        // `NaN` (how Rust and C print a not-a-number; binary models hold some), after the sign.
        let signed = usize::from(matches!(tok.first(), Some(b'-' | b'+')));
        return tok[signed..]
            .eq_ignore_ascii_case(b"nan")
            .then_some(f64::NAN);
    }
    let mut exp: i64 = 0;
    if i < n && (tok[i] | 0x20) == b'e' {
        i += 1;
        let mut eneg = false;
        if i < n && (tok[i] == b'-' || tok[i] == b'+') {
            eneg = tok[i] == b'-';
            i += 1;
        }
        let e_start = i;
        while i < n {
            let d = tok[i].wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            if exp < 100_000 {
                exp = exp * 10 + i64::from(d);
            }
            i += 1;
        }
        if i == e_start {
            return None;
        }
        if eneg {
            exp = -exp;
        }
    }
    if i != n {
        return None;
    }
    let exp = exp - frac as i64;
    if digits <= 19 && mant <= (1u64 << 53) && (-22..=22).contains(&exp) {
        let m = mant as f64;
        let v = if exp >= 0 {
            m * POW10[exp as usize]
        } else {
            m / POW10[(-exp) as usize]
        };
        return Some(if neg { -v } else { v });
    }
    // Slow path: the standard library is correctly rounded.
    std::str::from_utf8(tok).ok()?.parse::<f64>().ok()
}

/// Parses an unsigned decimal integer.
#[inline]
pub(crate) fn parse_u64(tok: &[u8]) -> Option<u64> {
    if tok.is_empty() || tok.len() > 19 {
        return None;
    }
    let mut v: u64 = 0;
    for &b in tok {
        if !b.is_ascii_digit() {
            return None;
        }
        v = v * 10 + u64::from(b - b'0');
    }
    Some(v)
}

/// Parses a signed decimal integer.
#[inline]
pub(crate) fn parse_i64(tok: &[u8]) -> Option<i64> {
    match tok.first()? {
        b'-' => parse_u64(&tok[1..])
            .and_then(|v| i64::try_from(v).ok())
            .map(|v| -v),
        b'+' => parse_u64(&tok[1..]).and_then(|v| i64::try_from(v).ok()),
        _ => parse_u64(tok).and_then(|v| i64::try_from(v).ok()),
    }
}

/// Lower-cases a keyword into a stack buffer; longer words come back as an empty slice
/// (no keyword is longer than 32 bytes).
#[inline]
pub(crate) fn lower<'b>(tok: &[u8], buf: &'b mut [u8; 32]) -> std::borrow::Cow<'b, [u8]> {
    if tok.len() > buf.len() {
        // No keyword is this long, but suffix rules (`...key`) still apply: lower-case it whole.
        return std::borrow::Cow::Owned(tok.to_ascii_lowercase());
    }
    for (d, s) in buf.iter_mut().zip(tok) {
        *d = s.to_ascii_lowercase();
    }
    std::borrow::Cow::Borrowed(&buf[..tok.len()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_match_std() {
        for s in [
            "0",
            "-0",
            "1.0",
            "-1.19209e-007",
            "22.938289642333984",
            "0.1",
            ".5",
            "-.5",
            "5.",
            "1e10",
            "1E-5",
            "123456789012345678901234",
            "3.4028235e38",
            "4.9e-324",
            "+2.5",
            "0.000000000000000000000000001",
            "9007199254740993",
            "-4.00543212890625e-05",
        ] {
            assert_eq!(
                parse_f64(s.as_bytes()).map(f64::to_bits),
                s.parse::<f64>().ok().map(f64::to_bits),
                "{s}"
            );
        }
        for s in [
            "", "-", ".", "e5", "1e", "1.0x", "inf", "1..2", "--1", "nanx", ".nan",
        ] {
            assert_eq!(parse_f64(s.as_bytes()), None, "{s}");
        }
        // `NaN`, as Rust and C print it (binary models hold some), in any case and sign.
        for s in ["nan", "NaN", "-NaN", "+nan"] {
            assert!(parse_f64(s.as_bytes()).is_some_and(f64::is_nan), "{s}");
            assert!(looks_numeric(s.as_bytes()), "{s}");
        }
    }

    /// Read through `f64`, a decimal just above the midpoint between 1 and the next `f32`
    /// rounds twice: to the midpoint, then (ties to even) down to 1. The parser gives the `f32`
    /// the decimal is nearest to.
    #[test]
    fn floats_round_once_to_f32() {
        let s = "1.00000005960464477539062500001";
        let through_f64 = s.parse::<f64>().unwrap() as f32;
        let right = s.parse::<f32>().unwrap();
        assert_ne!(through_f64, right, "the case rounds twice through f64");
        assert_eq!(parse_f64(s.as_bytes()).map(|v| v as f32), Some(right));
        let below = "1.00000005960464477539062499999";
        assert_eq!(
            parse_f64(below.as_bytes()).map(|v| v as f32),
            below.parse::<f32>().ok()
        );
        // The midpoint itself ties to even, as `str::parse::<f32>` does.
        let mid = "1.000000059604644775390625";
        assert_eq!(parse_f64(mid.as_bytes()).map(|v| v as f32), Some(1.0));
        assert_eq!(mid.parse::<f32>().unwrap(), 1.0);
        // A negative one, and one in the subnormal range.
        let neg = "-1.00000005960464477539062500001";
        assert_eq!(
            parse_f64(neg.as_bytes()).map(|v| v as f32),
            neg.parse::<f32>().ok()
        );
    }

    proptest::proptest! {
        /// Any decimal the tools could write reads as its correctly rounded `f32`.
        #[test]
        fn decimals_read_as_their_nearest_f32(
            neg in proptest::bool::ANY,
            int in "[0-9]{1,12}",
            frac in "[0-9]{0,30}",
            exp in proptest::option::of(-50i32..50),
        ) {
            let mut s = format!("{}{int}.{frac}", if neg { "-" } else { "" });
            if let Some(e) = exp {
                s.push_str(&format!("e{e}"));
            }
            let want = s.parse::<f32>().unwrap();
            let got = parse_f64(s.as_bytes()).unwrap() as f32;
            proptest::prop_assert_eq!(got.to_bits(), want.to_bits(), "{}", s);
        }
    }

    #[test]
    fn tokens_stop_at_comment() {
        let t: Vec<_> = Tokens::new(b"  parent NULL  # No parent")
            .map(|(_, t)| t)
            .collect();
        assert_eq!(t, vec![&b"parent"[..], b"NULL"]);
        let t: Vec<_> = Tokens::new(b"endnode#maxmodel").map(|(_, t)| t).collect();
        assert_eq!(t, vec![&b"endnode"[..]]);
    }

    #[test]
    fn lines() {
        let s = b"a\r\nbb\nc";
        let l = line_at(s, 0);
        assert_eq!((l.start, l.end, l.next), (0, 1, 3));
        let l = line_at(s, 3);
        assert_eq!((l.start, l.end, l.next), (3, 5, 6));
        let l = line_at(s, 6);
        assert_eq!((l.start, l.end, l.next), (6, 7, 7));
    }
}
