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
    let tags: Vec<[u8; 4]> = trx.packets.iter().map(Packet::tag).collect();
    write_container(
        [trx.version_major, trx.version_minor],
        &tags,
        &payloads,
        trx.layout.as_ref(),
    )
}

/// The "NWN2" packet container (TRN, TRX, MDB): the header (`version` major, minor), the
/// packet table and each packet (`tags[i]`, its size, `payloads[i]`). With a `layout` whose
/// sizes are the payloads', the packets go at its offsets with its bytes between them;
/// otherwise back to back in table order.
pub(crate) fn write_container(
    version: [u16; 2],
    tags: &[[u8; 4]],
    payloads: &[Vec<u8>],
    layout: Option<&super::Layout>,
) -> Result<Vec<u8>, EncodeError> {
    let n = payloads.len();
    let fits = |l: &&super::Layout| {
        l.offsets.len() == n
            && l.sizes.len() == n
            && payloads
                .iter()
                .zip(&l.sizes)
                .all(|(p, &s)| p.len() == s as usize)
    };
    let table_end = raw::HEADER_SIZE + n * raw::PACKET_ENTRY_SIZE;
    let offsets: Vec<usize> = match layout.filter(fits) {
        Some(l) => l.offsets.iter().map(|&o| o as usize).collect(),
        None => payloads
            .iter()
            .scan(table_end, |at, p| {
                let o = *at;
                *at += raw::PACKET_HEADER_SIZE + p.len();
                Some(o)
            })
            .collect(),
    };
    let kept = layout.filter(fits);
    let mut len = kept.map_or(table_end, |l| (l.file_len as usize).max(table_end));
    for (&o, p) in offsets.iter().zip(payloads) {
        len = len.max(o + raw::PACKET_HEADER_SIZE + p.len());
    }
    for (o, bytes) in kept.map_or(&[][..], |l| &l.filler[..]) {
        len = len.max(*o as usize + bytes.len());
    }
    if u32::try_from(len).is_err() {
        return Err(EncodeError(format!(
            "{len} bytes do not fit 32-bit packet offsets"
        )));
    }
    let mut out = vec![0u8; len];
    out[..4].copy_from_slice(&raw::MAGIC);
    out[4..6].copy_from_slice(&version[0].to_le_bytes());
    out[6..8].copy_from_slice(&version[1].to_le_bytes());
    out[8..12].copy_from_slice(&count(n)?.to_le_bytes());
    for (i, (tag, &o)) in tags.iter().zip(&offsets).enumerate() {
        let at = raw::HEADER_SIZE + i * raw::PACKET_ENTRY_SIZE;
        out[at..at + 4].copy_from_slice(tag);
        out[at + 4..at + 8].copy_from_slice(&count(o)?.to_le_bytes());
    }
    for (o, bytes) in kept.map_or(&[][..], |l| &l.filler[..]) {
        let o = *o as usize;
        out[o..o + bytes.len()].copy_from_slice(bytes);
    }
    for ((tag, payload), &o) in tags.iter().zip(payloads).zip(&offsets) {
        out[o..o + 4].copy_from_slice(tag);
        out[o + 4..o + 8].copy_from_slice(&count(payload.len())?.to_le_bytes());
        out[o + 8..o + 8 + payload.len()].copy_from_slice(payload);
    }
    Ok(out)
}
