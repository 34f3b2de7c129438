//! New objects stored as one pack: a version 2 pack stream (`gitformat-pack`, no deltas) made
//! here, and `git index-pack --stdin` checking it and writing it with its index into the object
//! directory of `git`'s environment (seal's quarantine). One pack instead of a loose file per
//! object: on a tree of many directories, creating those files was most of what `git write-tree`
//! cost.

use std::io::Write;

use anyhow::{Context, Result, bail};
use gix::objs::Kind;

use crate::git::Git;
use crate::git::plumbing::run_with_input;

/// Stores `objects` (kind and content) as one new pack.
pub fn write_objects(git: &Git, hash: gix::hash::Kind, objects: &[(Kind, Vec<u8>)]) -> Result<()> {
    if objects.is_empty() {
        return Ok(());
    }
    let mut stream = Vec::with_capacity(objects.iter().map(|(_, data)| data.len() / 2 + 8).sum());
    stream.extend_from_slice(b"PACK");
    stream.extend_from_slice(&2u32.to_be_bytes());
    stream.extend_from_slice(&u32::try_from(objects.len())?.to_be_bytes());
    for (kind, data) in objects {
        entry_header(&mut stream, pack_type(*kind), data.len() as u64);
        let mut deflate =
            gix_zlib::stream::deflate::Write::new(&mut stream, gix_zlib::Compression::BEST_SPEED);
        deflate.write_all(data)?;
        deflate.flush()?;
    }
    let mut hasher = gix::hash::hasher(hash);
    hasher.update(&stream);
    let trailer = hasher.try_finalize().context("hashing the pack")?;
    stream.extend_from_slice(trailer.as_slice());
    let mut cmd = git.command(["index-pack", "--stdin"]);
    let out = run_with_input(&mut cmd, &stream).context("storing new objects as a pack")?;
    if !out.starts_with(b"pack\t") {
        bail!("git index-pack printed {:?}", String::from_utf8_lossy(&out));
    }
    Ok(())
}

fn pack_type(kind: Kind) -> u8 {
    match kind {
        Kind::Commit => 1,
        Kind::Tree => 2,
        Kind::Blob => 3,
        Kind::Tag => 4,
    }
}

/// An entry's type and inflated size: four bits of size in the first byte, then seven per byte,
/// low bits first, the high bit saying another byte follows.
fn entry_header(out: &mut Vec<u8>, kind: u8, mut size: u64) {
    let mut byte = (kind << 4) | (size & 0x0f) as u8;
    size >>= 4;
    while size > 0 {
        out.push(byte | 0x80);
        byte = (size & 0x7f) as u8;
        size >>= 7;
    }
    out.push(byte);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_headers_as_git_writes_them() {
        let header = |kind, size| {
            let mut out = Vec::new();
            entry_header(&mut out, kind, size);
            out
        };
        assert_eq!(header(2, 5), [0x25]);
        assert_eq!(header(3, 16), [0xb0, 0x01]);
        assert_eq!(header(2, 300), [0xac, 0x12]);
        assert_eq!(header(1, 0), [0x10]);
    }
}
