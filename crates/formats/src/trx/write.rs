//! Encoding a [`Trx`] to bytes.

use super::aswm;
use super::model::{Packet, Trx, Watr};
use super::raw;
use crate::cursor::PutLe;
use crate::error::EncodeError;

/// Encodes a packet's payload.
pub fn encode_packet(p: &Packet) -> Result<Vec<u8>, EncodeError> {
    Ok(match p {
        Packet::Trwh(t) => {
            let mut out = Vec::with_capacity(raw::TRWH_SIZE);
            out.put_u32(t.width);
            out.put_u32(t.height);
            out.put_u32(t.id);
            out
        }
        Packet::Watr(w) => encode_watr(w)?,
        Packet::Aswm(a) => aswm::encode_aswm(a)?,
        Packet::Opaque { data, .. } => data.clone(),
    })
}

fn encode_watr(w: &Watr) -> Result<Vec<u8>, EncodeError> {
    if w.triangle_flags.len() != w.triangles.len() {
        return Err(EncodeError(format!(
            "WATR: {} triangles but {} triangle flags",
            w.triangles.len(),
            w.triangle_flags.len()
        )));
    }
    let mut out =
        Vec::with_capacity(340 + w.vertices.len() * 28 + w.triangles.len() * 10 + w.dds.len() + 12);
    out.extend_from_slice(&w.name);
    out.extend_from_slice(&w.unknown);
    out.put_vec3(w.color);
    for v in w.ripple {
        out.put_f32(v);
    }
    for v in [
        w.smoothness,
        w.reflect_bias,
        w.reflect_power,
        w.specular_power,
        w.specular_coefficient,
    ] {
        out.put_f32(v);
    }
    for t in &w.textures {
        out.extend_from_slice(&t.name);
        for v in t.direction {
            out.put_f32(v);
        }
        out.put_f32(t.rate);
        out.put_f32(t.angle);
    }
    for v in w.uv_offset {
        out.put_f32(v);
    }
    out.put_u32(count(w.vertices.len())?);
    out.put_u32(count(w.triangles.len())?);
    for v in &w.vertices {
        out.put_vec3(v.position);
        for f in v.uv0.iter().chain(&v.uv1) {
            out.put_f32(*f);
        }
    }
    for t in &w.triangles {
        for i in t {
            out.extend_from_slice(&i.to_le_bytes());
        }
    }
    for f in &w.triangle_flags {
        out.put_u32(*f);
    }
    out.put_u32(count(w.dds.len())?);
    out.extend_from_slice(&w.dds);
    out.put_u32(w.megatile[0]);
    out.put_u32(w.megatile[1]);
    Ok(out)
}

fn count(n: usize) -> Result<u32, EncodeError> {
    u32::try_from(n).map_err(|_| EncodeError(format!("{n} does not fit in a u32")))
}

/// Encodes a TRN/TRX file: header, packet table, then the packets back to back in table
/// order (the layout of every corpus file).
///
/// A model read from a file writes back byte for byte: the ASWM packet reuses its original
/// compressed bytes while the walkmesh is unchanged, and is re-compressed otherwise. A file
/// read with a non-canonical [`Layout`](super::Layout) keeps it (packets at their original
/// offsets, the bytes between them kept) while every packet still has its original size.
pub fn write(trx: &Trx) -> Result<Vec<u8>, EncodeError> {
    let payloads = trx
        .packets
        .iter()
        .map(encode_packet)
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(layout) = &trx.layout {
        let fits = layout.offsets.len() == payloads.len()
            && layout.sizes.len() == payloads.len()
            && payloads
                .iter()
                .zip(&layout.sizes)
                .all(|(p, &s)| p.len() == s as usize);
        if fits {
            return write_in_layout(trx, &payloads, layout);
        }
    }
    let n = payloads.len();
    let table_end = raw::HEADER_SIZE + n * raw::PACKET_ENTRY_SIZE;
    let total = table_end
        + payloads
            .iter()
            .map(|p| p.len() + raw::PACKET_HEADER_SIZE)
            .sum::<usize>();
    if u32::try_from(total).is_err() {
        return Err(EncodeError(format!(
            "{total} bytes do not fit 32-bit packet offsets"
        )));
    }
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(&raw::MAGIC);
    out.extend_from_slice(&trx.version_major.to_le_bytes());
    out.extend_from_slice(&trx.version_minor.to_le_bytes());
    out.put_u32(count(n)?);
    let mut offset = table_end;
    for (p, payload) in trx.packets.iter().zip(&payloads) {
        out.extend_from_slice(&p.tag());
        out.put_u32(count(offset)?);
        offset += raw::PACKET_HEADER_SIZE + payload.len();
    }
    for (p, payload) in trx.packets.iter().zip(&payloads) {
        out.extend_from_slice(&p.tag());
        out.put_u32(count(payload.len())?);
        out.extend_from_slice(payload);
    }
    Ok(out)
}

/// Writes the packets at their original offsets, with the original bytes between them.
fn write_in_layout(
    trx: &Trx,
    payloads: &[Vec<u8>],
    layout: &super::Layout,
) -> Result<Vec<u8>, EncodeError> {
    let n = payloads.len();
    let table_end = raw::HEADER_SIZE + n * raw::PACKET_ENTRY_SIZE;
    let mut len = (layout.file_len as usize).max(table_end);
    for (&o, p) in layout.offsets.iter().zip(payloads) {
        len = len.max(o as usize + raw::PACKET_HEADER_SIZE + p.len());
    }
    for (o, bytes) in &layout.filler {
        len = len.max(*o as usize + bytes.len());
    }
    if u32::try_from(len).is_err() {
        return Err(EncodeError(format!(
            "{len} bytes do not fit 32-bit packet offsets"
        )));
    }
    let mut out = vec![0u8; len];
    out[..4].copy_from_slice(&raw::MAGIC);
    out[4..6].copy_from_slice(&trx.version_major.to_le_bytes());
    out[6..8].copy_from_slice(&trx.version_minor.to_le_bytes());
    out[8..12].copy_from_slice(&count(n)?.to_le_bytes());
    for (i, (p, &o)) in trx.packets.iter().zip(&layout.offsets).enumerate() {
        let at = raw::HEADER_SIZE + i * raw::PACKET_ENTRY_SIZE;
        out[at..at + 4].copy_from_slice(&p.tag());
        out[at + 4..at + 8].copy_from_slice(&o.to_le_bytes());
    }
    for (o, bytes) in &layout.filler {
        let o = *o as usize;
        out[o..o + bytes.len()].copy_from_slice(bytes);
    }
    for ((p, payload), &o) in trx.packets.iter().zip(payloads).zip(&layout.offsets) {
        let o = o as usize;
        out[o..o + 4].copy_from_slice(&p.tag());
        out[o + 4..o + 8].copy_from_slice(&count(payload.len())?.to_le_bytes());
        out[o + 8..o + 8 + payload.len()].copy_from_slice(payload);
    }
    Ok(out)
}
