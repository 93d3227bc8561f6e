//! Encoding a [`Vis`] to text.

use super::model::Vis;
use crate::error::EncodeError;
use crate::text_lines::{Eol, LineWriter, encode};

/// Encodes room visibility.
///
/// A model read from a file is written back line for line: a parent line is reused while its
/// name and number of children are unchanged (so a wrong count survives until the entry is
/// edited), a child line while a child of that exact name remains; an edited child keeps its
/// line's place and terminator; blank lines travel with the line after them. New or edited
/// lines are canonical: `NAME COUNT`, children indented by two spaces, in the file's usual line
/// terminator (LF for models built in code).
///
/// Errors: a name that is empty, contains whitespace or a character above U+00FF.
pub fn write(vis: &Vis) -> Result<Vec<u8>, EncodeError> {
    for (i, r) in vis.rooms.iter().enumerate() {
        for name in std::iter::once(&r.name).chain(&r.visible) {
            if !crate::text_lines::is_token(name) {
                return Err(EncodeError(format!(
                    "VIS entry {i}: room name {name:?} is empty or contains whitespace"
                )));
            }
        }
    }
    let eol = vis.layout.as_ref().map_or(Eol::Lf, |l| l.default_eol);
    let mut w = LineWriter::new(eol);
    for r in &vis.rooms {
        match &r.source {
            Some(src) => {
                for l in &src.leading {
                    w.line(&l.text, l.eol);
                }
                if src.name == r.name && src.children_at_read == r.visible.len() {
                    w.line(&src.text, src.eol);
                } else {
                    w.line(&format!("{} {}", r.name, r.visible.len()), src.eol);
                }
            }
            None => w.line(&format!("{} {}", r.name, r.visible.len()), eol),
        }
        for (name, src) in r.visible.iter().zip(r.match_children()) {
            match src {
                Some((c, exact)) => {
                    for l in &c.leading {
                        w.line(&l.text, l.eol);
                    }
                    if exact {
                        w.line(&c.text, c.eol);
                    } else {
                        w.line(&format!("  {name}"), c.eol);
                    }
                }
                None => w.line(&format!("  {name}"), eol),
            }
        }
    }
    let Some(layout) = &vis.layout else {
        return encode(&w.finish(), "VIS");
    };
    for l in &layout.trailing {
        w.line(&l.text, l.eol);
    }
    Ok(layout.frame.wrap(encode(&w.finish(), "VIS")?))
}
