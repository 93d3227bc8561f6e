//! The named choices of the operations' requests (a path mode, when to build the corner
//! graph, a mirror axis, a texture encoding): one table of names per choice, here, read by
//! the command line (through [`value_parser`], behind the `clap` feature), by Python (through
//! [`parse`]) and by the docs test of the Python stub ([`table`]). Neither face lists a name
//! of its own.
//!
//! Where the enum can derive its names ([`PathMode`], [`CornerGraphChoice`]: `strum`), the
//! table is the enum itself: a new variant is a new name, with nothing else to edit.

use areakit_area::navigation::PathMode;
use areakit_formats::tpc::Encoding;
use areakit_geometry::transform::Axis;
use strum::{EnumMessage, VariantArray};

use crate::navigate::CornerGraphChoice;

/// A value chosen by name.
pub trait Choice: Copy + PartialEq + Send + Sync + 'static {
    /// What is chosen, as messages and Python's keyword name it (`mode`).
    const WHAT: &'static str;
    /// Every value a user may name, in the order help lists them.
    fn all() -> &'static [Self];
    /// Its name on the command line, in Python and in JSON.
    fn name(self) -> &'static str;
    /// Other names it is known by.
    fn aliases(self) -> &'static [&'static str] {
        &[]
    }
    /// One line of help.
    fn help(self) -> &'static str;
}

/// A name that names no value of a [`Choice`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} {given:?}: expected {}", or_list(.expected))]
pub struct ChoiceError {
    /// What was chosen ([`Choice::WHAT`]).
    pub what: &'static str,
    /// The name given.
    pub given: String,
    /// The names it could have been.
    pub expected: Vec<&'static str>,
}

fn or_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// The value named `s` (a name or an alias, in any ASCII case).
pub fn parse<T: Choice>(s: &str) -> Result<T, ChoiceError> {
    T::all()
        .iter()
        .copied()
        .find(|v| {
            v.name().eq_ignore_ascii_case(s)
                || v.aliases().iter().any(|a| a.eq_ignore_ascii_case(s))
        })
        .ok_or_else(|| ChoiceError {
            what: T::WHAT,
            given: s.to_string(),
            expected: names::<T>(),
        })
}

/// The names of a choice's values, in help order.
pub fn names<T: Choice>() -> Vec<&'static str> {
    T::all().iter().map(|v| v.name()).collect()
}

/// Every choice of the requests, by [`Choice::WHAT`], with its names (Python's
/// `areakit.CHOICES`; the stub's `Literal` types are checked against it).
pub fn table() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        (PathMode::WHAT, names::<PathMode>()),
        (CornerGraphChoice::WHAT, names::<CornerGraphChoice>()),
        (Axis::WHAT, names::<Axis>()),
        (Encoding::WHAT, names::<Encoding>()),
    ]
}

/// The clap parser of a choice: its names (and aliases) as the possible values, each with its
/// help line, as `#[arg(value_parser = value_parser::<T>())]`.
#[cfg(feature = "clap")]
pub fn value_parser<T: Choice>() -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = T::all().iter().map(|v| {
        PossibleValue::new(v.name())
            .help(v.help())
            .aliases(v.aliases().iter().copied())
    });
    PossibleValuesParser::new(values).try_map(|s: String| parse::<T>(&s))
}

impl Choice for PathMode {
    const WHAT: &'static str = "mode";
    fn all() -> &'static [Self] {
        PathMode::VARIANTS
    }
    fn name(self) -> &'static str {
        self.into()
    }
    fn help(self) -> &'static str {
        self.get_message().unwrap_or_default()
    }
}

impl Choice for CornerGraphChoice {
    const WHAT: &'static str = "corner_graph";
    fn all() -> &'static [Self] {
        CornerGraphChoice::VARIANTS
    }
    fn name(self) -> &'static str {
        self.into()
    }
    fn help(self) -> &'static str {
        self.get_message().unwrap_or_default()
    }
}

impl Choice for Axis {
    const WHAT: &'static str = "mirror";
    fn all() -> &'static [Self] {
        &[Axis::X, Axis::Y]
    }
    fn name(self) -> &'static str {
        match self {
            Axis::X => "x",
            Axis::Y => "y",
        }
    }
    fn help(self) -> &'static str {
        match self {
            Axis::X => "Negate x (mirror across the y-z plane)",
            Axis::Y => "Negate y (mirror across the x-z plane)",
        }
    }
}

/// The encodings a texture can be written in (the Xbox's swizzled BGRA is read only).
impl Choice for Encoding {
    const WHAT: &'static str = "encoding";
    fn all() -> &'static [Self] {
        &[
            Encoding::Dxt1,
            Encoding::Dxt5,
            Encoding::Rgb,
            Encoding::Rgba,
            Encoding::Grey,
        ]
    }
    fn name(self) -> &'static str {
        Encoding::name(self)
    }
    fn aliases(self) -> &'static [&'static str] {
        Encoding::aliases(self)
    }
    fn help(self) -> &'static str {
        match self {
            Encoding::Dxt1 => "DXT1 (BC1) blocks, 1-bit alpha",
            Encoding::Dxt5 => "DXT5 (BC3) blocks, full alpha",
            Encoding::Rgb => "R, G, B bytes",
            Encoding::Rgba => "R, G, B, A bytes",
            Encoding::Grey => "8-bit grey",
            Encoding::SwizzledBgra => "Xbox swizzled B, G, R, A bytes (read only)",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_in_any_case_and_strangers_are_named() {
        for (what, names) in table() {
            assert!(!names.is_empty(), "{what}");
        }
        for m in PathMode::VARIANTS {
            assert_eq!(parse::<PathMode>(&m.name().to_uppercase()), Ok(*m));
            assert_eq!(m.name().parse::<PathMode>(), Ok(*m));
            assert!(!Choice::help(*m).is_empty());
        }
        assert_eq!(parse::<Encoding>("BC1"), Ok(Encoding::Dxt1));
        assert_eq!(parse::<Encoding>("gray"), Ok(Encoding::Grey));
        assert_eq!(
            parse::<Encoding>("bgra-swizzled").unwrap_err().to_string(),
            "encoding \"bgra-swizzled\": expected dxt1, dxt5, rgb, rgba or grey"
        );
        assert_eq!(
            parse::<CornerGraphChoice>("maybe").unwrap_err().to_string(),
            "corner_graph \"maybe\": expected auto, yes or no"
        );
    }
}
