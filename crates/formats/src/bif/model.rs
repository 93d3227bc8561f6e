//! The owned BIF model.

use crate::cursor::Gap;
use crate::erf::DataRange;
use crate::error::EncodeError;
use crate::key::ResId;
use crate::restype::ResType;

/// A variable resource: an entry of the variable table and its data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BifResource {
    /// The stored id (`bif << 20 | index` as in the KEY).
    pub id: ResId,
    /// Type: the low half of the stored `u32`.
    pub restype: ResType,
    /// The high half of the stored type.
    pub type_high: u16,
    /// The data.
    pub data: Vec<u8>,
}

/// A fixed resource (Infinity Engine tilesets; the Aurora engines never read them, and
/// xoreos and PyKotor refuse BIFs that have any): kept with its data so that it writes back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixedResource {
    /// The stored id.
    pub id: ResId,
    /// Number of parts.
    pub part_count: u32,
    /// Bytes per part.
    pub part_size: u32,
    /// Type: the low half of the stored `u32`.
    pub restype: ResType,
    /// The high half of the stored type.
    pub type_high: u16,
    /// The data: `part_count * part_size` bytes.
    pub data: Vec<u8>,
}

/// The on-disk layout of a BIF that was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Offset of the variable table (offset 0x10); the fixed table follows it.
    pub var_table_offset: u32,
    /// Each variable resource's data range.
    pub ranges: Vec<DataRange>,
    /// Each fixed resource's data offset.
    pub fixed_offsets: Vec<u32>,
    /// Bytes outside the header, the tables and the data.
    pub gaps: Vec<Gap>,
    /// File length.
    pub len: u64,
}

/// A BIF: resource data of a KEY.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Bif {
    /// The variable resources in table order (the KEY's resource index is the position here).
    pub resources: Vec<BifResource>,
    /// The fixed resources in table order.
    pub fixed: Vec<FixedResource>,
    /// The layout of the file read; `None` for a new BIF (written canonically).
    pub layout: Option<Layout>,
}

impl Bif {
    /// An empty BIF.
    pub fn new() -> Self {
        Bif::default()
    }

    /// A new BIF, number `bif_index` of its KEY, holding `resources` in the order given:
    /// resource `i` gets the id `bif_index << 20 | i`.
    pub fn from_resources(
        bif_index: u32,
        resources: impl IntoIterator<Item = (ResType, Vec<u8>)>,
    ) -> Result<Self, EncodeError> {
        let mut bif = Bif::new();
        for (i, (restype, data)) in resources.into_iter().enumerate() {
            let id = u32::try_from(i)
                .ok()
                .and_then(|i| ResId::new(bif_index, i))
                .ok_or_else(|| {
                    EncodeError(format!(
                        "BIF {bif_index}, resource {i}: a resource id holds a BIF index below 4096 and a resource index below 2^20"
                    ))
                })?;
            bif.resources.push(BifResource {
                id,
                restype,
                type_high: 0,
                data,
            });
        }
        Ok(bif)
    }
}
