//! The owned, editable VIS model.

use crate::finding::Finding;
use crate::text_lines::{Eol, Frame, RawLine};

/// The original lines of a child entry.
#[derive(Debug, Clone)]
pub(crate) struct ChildSource {
    /// The name as read (the line is reused while a child of that exact name remains).
    pub name: String,
    pub text: String,
    pub eol: Eol,
    pub line: u32,
    /// Blank or whitespace-only lines just before this one.
    pub leading: Vec<RawLine>,
}

/// The original lines of a parent entry.
#[derive(Debug, Clone)]
pub(crate) struct ParentSource {
    pub name: String,
    pub text: String,
    pub eol: Eol,
    pub line: u32,
    /// Children read under this parent (the parent line is reused while the name and the
    /// number of children are unchanged).
    pub children_at_read: usize,
    pub leading: Vec<RawLine>,
    pub children: Vec<ChildSource>,
}

/// One parent entry: a room and the rooms drawn while the player is in it.
#[derive(Debug, Clone, Default)]
pub struct VisRoom {
    /// The room (a LYT room name; case-insensitive).
    pub name: String,
    /// The rooms visible from it, in file order, as spelled in the file (duplicates kept).
    pub visible: Vec<String>,
    pub(crate) source: Option<Box<ParentSource>>,
}

impl PartialEq for VisRoom {
    /// Compares names and children, not the source text.
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.visible == other.visible
    }
}

impl VisRoom {
    /// A new entry with no visible rooms.
    pub fn new(name: impl Into<String>) -> Self {
        VisRoom {
            name: name.into(),
            visible: Vec::new(),
            source: None,
        }
    }

    /// The 1-based line of the parent entry, if it was read from a file.
    pub fn line(&self) -> Option<u32> {
        self.source.as_ref().map(|s| s.line)
    }

    /// Whether `room` is listed (case-insensitive).
    pub fn lists(&self, room: &str) -> bool {
        self.visible.iter().any(|v| v.eq_ignore_ascii_case(room))
    }

    /// For each child, the source line it came from, if any, and whether the name is
    /// unchanged: first children and source lines of the same exact name are paired in order,
    /// then a remaining child takes the remaining source line at its own position (an edited
    /// child: its text is rewritten, its line terminator and blank lines kept).
    pub(crate) fn match_children(&self) -> Vec<Option<(&ChildSource, bool)>> {
        let Some(src) = &self.source else {
            return vec![None; self.visible.len()];
        };
        let mut used = vec![false; src.children.len()];
        // Source lines of each exact name, in file order: pairing takes them front to back, so
        // a room with many children costs linear time (a search per child was quadratic).
        let mut by_name: std::collections::HashMap<&str, std::collections::VecDeque<usize>> =
            std::collections::HashMap::new();
        for (k, c) in src.children.iter().enumerate() {
            by_name.entry(c.name.as_str()).or_default().push_back(k);
        }
        let mut out: Vec<Option<(usize, bool)>> = self
            .visible
            .iter()
            .map(|name| {
                let k = by_name.get_mut(name.as_str())?.pop_front()?;
                used[k] = true;
                Some((k, true))
            })
            .collect();
        for (i, m) in out.iter_mut().enumerate() {
            if m.is_none() && used.get(i) == Some(&false) {
                used[i] = true;
                *m = Some((i, false));
            }
        }
        out.into_iter()
            .map(|m| m.map(|(k, exact)| (&src.children[k], exact)))
            .collect()
    }

    /// The 1-based line of each child, where it was read from a file.
    pub fn child_lines(&self) -> Vec<Option<u32>> {
        self.match_children()
            .into_iter()
            .map(|c| c.map(|(c, _)| c.line))
            .collect()
    }
}

/// How the file was laid out when read.
#[derive(Debug, Clone)]
pub(crate) struct VisLayout {
    /// Blank lines after the last entry.
    pub trailing: Vec<RawLine>,
    pub default_eol: Eol,
    /// The byte-order mark and NUL tail around the text.
    pub frame: Frame,
    pub findings: Vec<Finding>,
}

/// Room visibility (`.vis`): for each room, the rooms the engine draws while the player is in
/// it. Visibility is directed (one-way entries are normal) and a room need not list itself.
///
/// Room names are case-insensitive. Entries are kept as read: a room may have several parent
/// entries, a child may be listed twice; [`Vis::is_visible`] looks at all of them.
#[derive(Debug, Clone, Default)]
pub struct Vis {
    /// Parent entries in file order.
    pub rooms: Vec<VisRoom>,
    pub(crate) layout: Option<VisLayout>,
}

impl PartialEq for Vis {
    /// Compares entries, not formatting.
    fn eq(&self, other: &Self) -> bool {
        self.rooms == other.rooms
    }
}

/// Entry counts, for `areakit info`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VisSummary {
    /// Parent entries.
    pub rooms: usize,
    /// Child entries (room-to-room visibility links as listed).
    pub links: usize,
}

impl Vis {
    /// Entry counts.
    pub fn summary(&self) -> VisSummary {
        VisSummary {
            rooms: self.rooms.len(),
            links: self.link_count(),
        }
    }

    /// Child entries over all parents.
    pub fn link_count(&self) -> usize {
        self.rooms.iter().map(|r| r.visible.len()).sum()
    }

    /// The first parent entry of `room` (case-insensitive).
    pub fn room(&self, room: &str) -> Option<&VisRoom> {
        self.rooms
            .iter()
            .find(|r| r.name.eq_ignore_ascii_case(room))
    }

    /// The first parent entry of `room`, mutable.
    pub fn room_mut(&mut self, room: &str) -> Option<&mut VisRoom> {
        self.rooms
            .iter_mut()
            .find(|r| r.name.eq_ignore_ascii_case(room))
    }

    /// Whether `to` is drawn while the player is in `from` (case-insensitive; directed).
    pub fn is_visible(&self, from: &str, to: &str) -> bool {
        self.rooms
            .iter()
            .any(|r| r.name.eq_ignore_ascii_case(from) && r.lists(to))
    }

    /// The rooms listed under every entry of `from`, in file order, without case-insensitive
    /// repeats.
    pub fn visible_from(&self, from: &str) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for r in self
            .rooms
            .iter()
            .filter(|r| r.name.eq_ignore_ascii_case(from))
        {
            for v in &r.visible {
                if !out.iter().any(|o| o.eq_ignore_ascii_case(v)) {
                    out.push(v);
                }
            }
        }
        out
    }

    /// Every room named in the file (parents and children), first spelling, first-seen order,
    /// without case-insensitive repeats.
    pub fn room_names(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for r in &self.rooms {
            for n in std::iter::once(&r.name).chain(&r.visible) {
                if !out.iter().any(|o| o.eq_ignore_ascii_case(n)) {
                    out.push(n);
                }
            }
        }
        out
    }

    /// The entry of `room`, added at the end (with no visible rooms) if there is none.
    pub fn add_room(&mut self, room: &str) -> &mut VisRoom {
        let i = match self
            .rooms
            .iter()
            .position(|r| r.name.eq_ignore_ascii_case(room))
        {
            Some(i) => i,
            None => {
                self.rooms.push(VisRoom::new(room));
                self.rooms.len() - 1
            }
        };
        &mut self.rooms[i]
    }

    /// Removes every entry of `room` and every child entry naming it. Returns whether anything
    /// was removed.
    pub fn remove_room(&mut self, room: &str) -> bool {
        let before = (self.rooms.len(), self.link_count());
        self.rooms.retain(|r| !r.name.eq_ignore_ascii_case(room));
        for r in &mut self.rooms {
            r.visible.retain(|v| !v.eq_ignore_ascii_case(room));
        }
        before != (self.rooms.len(), self.link_count())
    }

    /// Renames `old` to `new` in parent and child entries (case-insensitive match). Returns the
    /// number of names changed.
    pub fn rename_room(&mut self, old: &str, new: &str) -> usize {
        let mut n = 0;
        for r in &mut self.rooms {
            if r.name.eq_ignore_ascii_case(old) {
                r.name = new.to_string();
                n += 1;
            }
            for v in &mut r.visible {
                if v.eq_ignore_ascii_case(old) {
                    *v = new.to_string();
                    n += 1;
                }
            }
        }
        n
    }

    /// Makes `to` visible from `from` (adding the entry of `from` if needed), or removes every
    /// listing of `to` under `from`. Returns whether the model changed.
    pub fn set_visible(&mut self, from: &str, to: &str, visible: bool) -> bool {
        if visible {
            if self.is_visible(from, to) {
                return false;
            }
            self.add_room(from).visible.push(to.to_string());
            true
        } else {
            let before = self.link_count();
            for r in self
                .rooms
                .iter_mut()
                .filter(|r| r.name.eq_ignore_ascii_case(from))
            {
                r.visible.retain(|v| !v.eq_ignore_ascii_case(to));
            }
            before != self.link_count()
        }
    }

    /// The warnings found while reading (empty for a model not read from a file).
    pub fn read_findings(&self) -> &[Finding] {
        self.layout.as_ref().map_or(&[], |l| &l.findings)
    }

    /// Forgets the original text: the next write is canonical.
    pub fn clear_source(&mut self) {
        self.layout = None;
        for r in &mut self.rooms {
            r.source = None;
        }
    }
}
