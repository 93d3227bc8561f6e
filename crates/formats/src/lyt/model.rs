//! The owned, editable LYT model.
//!
//! Every record read from a file remembers its line's original text and the values parsed from
//! it. The writer reuses that text as long as the record's values are unchanged, so edits touch
//! only the lines of the records that were edited or added.

use crate::finding::Finding;
use crate::text_lines::{Eol, Frame, RawLine};

/// The name LYT files use for a removed room kept only to preserve the room indices.
pub const PLACEHOLDER_ROOM: &str = "****";

/// The original text of a record line and the values parsed from it.
#[derive(Debug, Clone)]
pub(crate) struct Source<T> {
    /// The line without its terminator.
    pub text: String,
    /// 1-based line number in the file read.
    pub line: u32,
    /// The values as parsed (with no source of their own).
    pub parsed: T,
}

impl<T: Clone> Source<T> {
    /// `parsed` with its source: the line `text` (number `line`) it was read from, and the
    /// values as parsed, against which a writer tells whether the record was edited.
    pub(crate) fn attach(parsed: T, text: &str, line: u32, set: fn(&mut T, Box<Source<T>>)) -> T {
        let mut record = parsed.clone();
        set(
            &mut record,
            Box::new(Source {
                text: text.to_string(),
                line,
                parsed,
            }),
        );
        record
    }
}

/// A room, a swoop track element or an obstacle: a model name and its world position.
#[derive(Debug, Clone, Default)]
pub struct Placement {
    /// Model resref (rooms: the MDL/MDX/WOK name; case-insensitive, up to 16 characters).
    pub name: String,
    /// World position of the model's origin.
    pub position: [f32; 3],
    /// Tokens after `x y z` on the line, kept as read (no real file has any).
    pub extra: Vec<String>,
    pub(crate) source: Option<Box<Source<Placement>>>,
}

impl Placement {
    /// A new record (written in canonical form).
    pub fn new(name: impl Into<String>, position: [f32; 3]) -> Self {
        Placement {
            name: name.into(),
            position,
            extra: Vec::new(),
            source: None,
        }
    }

    /// Whether this is the placeholder room `****`.
    pub fn is_placeholder(&self) -> bool {
        self.name == PLACEHOLDER_ROOM
    }

    /// The 1-based line this record was read from, if it was read from a file.
    pub fn line(&self) -> Option<u32> {
        self.source.as_ref().map(|s| s.line)
    }

    pub(crate) fn values(&self) -> Placement {
        Placement {
            source: None,
            ..self.clone()
        }
    }
}

impl PartialEq for Placement {
    /// Compares values (bit-exact floats), not the source text.
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && self.position.map(f32::to_bits) == other.position.map(f32::to_bits)
            && self.extra == other.extra
    }
}

/// A door hook: where a door model is placed, attached to a room.
#[derive(Debug, Clone, Default)]
pub struct DoorHook {
    /// The room the hook belongs to (normally a room of the layout; case-insensitive).
    pub room: String,
    /// The hook's name, referenced by the module's door instances.
    pub door: String,
    /// The token after the door name: `0` in every real file; its meaning is unknown.
    pub unknown: i32,
    /// World position of the door.
    pub position: [f32; 3],
    /// Orientation quaternion in file order `w x y z` (`1.0 0.0 0.0 0.0` is no rotation; see
    /// `docs/formats/lyt.md` for the evidence).
    pub orientation: [f32; 4],
    /// Further floats after the quaternion, kept as read (some tools write five).
    pub extra: Vec<f32>,
    pub(crate) source: Option<Box<Source<DoorHook>>>,
}

impl DoorHook {
    /// A new hook with no rotation and no extra floats (written in canonical form).
    pub fn new(room: impl Into<String>, door: impl Into<String>, position: [f32; 3]) -> Self {
        DoorHook {
            room: room.into(),
            door: door.into(),
            unknown: 0,
            position,
            orientation: [1.0, 0.0, 0.0, 0.0],
            extra: Vec::new(),
            source: None,
        }
    }

    /// The 1-based line this record was read from, if it was read from a file.
    pub fn line(&self) -> Option<u32> {
        self.source.as_ref().map(|s| s.line)
    }

    pub(crate) fn values(&self) -> DoorHook {
        DoorHook {
            source: None,
            ..self.clone()
        }
    }
}

impl PartialEq for DoorHook {
    /// Compares values (bit-exact floats), not the source text.
    fn eq(&self, other: &Self) -> bool {
        self.room == other.room
            && self.door == other.door
            && self.unknown == other.unknown
            && self.position.map(f32::to_bits) == other.position.map(f32::to_bits)
            && self.orientation.map(f32::to_bits) == other.orientation.map(f32::to_bits)
            && self
                .extra
                .iter()
                .map(|v| v.to_bits())
                .eq(other.extra.iter().map(|v| v.to_bits()))
    }
}

/// A `filedependancy` line (the spelling of the tools): the source file the layout came from.
#[derive(Debug, Clone, Default)]
pub struct FileDependency {
    /// The file name (e.g. `m40ad.max`).
    pub name: String,
    pub(crate) source: Option<Box<Source<FileDependency>>>,
}

impl FileDependency {
    /// A new dependency line.
    pub fn new(name: impl Into<String>) -> Self {
        FileDependency {
            name: name.into(),
            source: None,
        }
    }

    /// The 1-based line this record was read from, if it was read from a file.
    pub fn line(&self) -> Option<u32> {
        self.source.as_ref().map(|s| s.line)
    }

    pub(crate) fn values(&self) -> FileDependency {
        FileDependency {
            source: None,
            ..self.clone()
        }
    }
}

impl PartialEq for FileDependency {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

/// The sections of a layout, in the order the tools write them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Section {
    /// `filedependancy` lines (no count).
    FileDependency,
    /// `roomcount`.
    Rooms,
    /// `trackcount`.
    Tracks,
    /// `obstaclecount`.
    Obstacles,
    /// `doorhookcount`.
    DoorHooks,
}

impl Section {
    /// The four counted sections in file order.
    pub const COUNTED: [Section; 4] = [
        Section::Rooms,
        Section::Tracks,
        Section::Obstacles,
        Section::DoorHooks,
    ];

    /// The keyword starting the section (lower case).
    pub const fn keyword(self) -> &'static str {
        match self {
            Section::FileDependency => "filedependancy",
            Section::Rooms => "roomcount",
            Section::Tracks => "trackcount",
            Section::Obstacles => "obstaclecount",
            Section::DoorHooks => "doorhookcount",
        }
    }

    pub(crate) const fn index(self) -> usize {
        match self {
            Section::FileDependency => 0,
            Section::Rooms => 1,
            Section::Tracks => 2,
            Section::Obstacles => 3,
            Section::DoorHooks => 4,
        }
    }
}

/// One line of the file as read, in order: what the writer walks to reproduce the file.
#[derive(Debug, Clone)]
pub(crate) enum Skeleton {
    /// A line kept as is: the header comment, blank lines, `beginlayout`, unknown lines.
    Verbatim(RawLine),
    /// The `beginlayout` line.
    Begin(RawLine),
    /// The `donelayout` line.
    End(RawLine),
    /// A `<section>count N` line.
    Count {
        section: Section,
        line: RawLine,
        /// Byte range of the count token in `line.text`, if there is one.
        count_span: Option<(usize, usize)>,
        /// Records that followed this line before the next section.
        records_at_read: usize,
    },
    /// The place of a record line of `section`.
    Slot { section: Section, eol: Eol },
}

/// How the file was laid out when read: lets an unmodified model write back byte for byte.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    pub lines: Vec<Skeleton>,
    pub default_eol: Eol,
    /// The byte-order mark and NUL tail around the text.
    pub frame: Frame,
    /// Irregularities seen while reading (warnings with line:column).
    pub findings: Vec<Finding>,
}

/// A room layout (`.lyt`): every section of the file.
///
/// Record order matters: a room's index in [`Lyt::rooms`] is the number WOK edge transitions use
/// to name it.
#[derive(Debug, Clone, Default)]
pub struct Lyt {
    /// `filedependancy` lines.
    pub file_dependencies: Vec<FileDependency>,
    /// `roomcount` entries, in file order.
    pub rooms: Vec<Placement>,
    /// `trackcount` entries (swoop track elements).
    pub tracks: Vec<Placement>,
    /// `obstaclecount` entries (swoop obstacles).
    pub obstacles: Vec<Placement>,
    /// `doorhookcount` entries.
    pub doorhooks: Vec<DoorHook>,
    pub(crate) layout: Option<Layout>,
}

impl PartialEq for Lyt {
    /// Compares the data, not the formatting.
    fn eq(&self, other: &Self) -> bool {
        self.file_dependencies == other.file_dependencies
            && self.rooms == other.rooms
            && self.tracks == other.tracks
            && self.obstacles == other.obstacles
            && self.doorhooks == other.doorhooks
    }
}

/// Record counts, for `areakit info`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LytSummary {
    /// Rooms (placeholders included).
    pub rooms: usize,
    /// Track elements.
    pub tracks: usize,
    /// Obstacles.
    pub obstacles: usize,
    /// Door hooks.
    pub doorhooks: usize,
}

impl Lyt {
    /// Record counts.
    pub fn summary(&self) -> LytSummary {
        LytSummary {
            rooms: self.rooms.len(),
            tracks: self.tracks.len(),
            obstacles: self.obstacles.len(),
            doorhooks: self.doorhooks.len(),
        }
    }

    /// The index of the first room named `name` (case-insensitive), which is the transition
    /// number WOK edges use for it.
    pub fn room_index(&self, name: &str) -> Option<usize> {
        self.rooms
            .iter()
            .position(|r| r.name.eq_ignore_ascii_case(name))
    }

    /// The warnings found while reading (empty for a model not read from a file).
    pub fn read_findings(&self) -> &[Finding] {
        self.layout.as_ref().map_or(&[], |l| &l.findings)
    }

    /// Forgets the original text: the next write is canonical.
    pub fn clear_source(&mut self) {
        self.layout = None;
        for r in self
            .rooms
            .iter_mut()
            .chain(&mut self.tracks)
            .chain(&mut self.obstacles)
        {
            r.source = None;
        }
        for d in &mut self.doorhooks {
            d.source = None;
        }
        for f in &mut self.file_dependencies {
            f.source = None;
        }
    }
}
