//! The pack reader's refusals of what a damaged pack claims (reading whole packs is compared
//! with git in tests/it/packs.rs).

use std::io::Write;

use super::*;

/// A size varint as pack entry headers write it, after the type's three bits.
fn entry_start(kind: u8, size: u64) -> Vec<u8> {
    let mut out = Vec::new();
    let mut byte = (kind << 4) | (size & 15) as u8;
    let mut rest = size >> 4;
    while rest != 0 {
        out.push(byte | 0x80);
        byte = (rest & 0x7f) as u8;
        rest >>= 7;
    }
    out.push(byte);
    out
}

fn delta_size(mut value: u64, out: &mut Vec<u8>) {
    while value >= 0x80 {
        out.push((value & 0x7f) as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Sizes a damaged pack claims are refused before anything that large is allocated.
#[test]
fn sizes_a_corrupt_entry_claims_are_errors_not_allocations() {
    let hash = gix::hash::Kind::Sha1;
    let mut pack = b"PACK\0\0\0\x02\0\0\0\x01".to_vec();
    pack.extend(entry_start(3, 1 << 50));
    let mut deflate =
        gix_zlib::stream::deflate::Write::new(Vec::new(), gix_zlib::Compression::BEST_SPEED);
    deflate.write_all(b"hi").unwrap();
    deflate.flush().unwrap();
    pack.extend(deflate.into_inner());
    let header = entry_header(&pack, 12, hash).unwrap();
    assert_eq!(header.size, 1 << 50);
    let mut reader = PackReader::new(Arc::new(Packs { hash, packs: Vec::new() }));
    let mut out = Vec::new();
    let err = reader.inflate_to(&pack, &header, &mut out).unwrap_err();
    assert!(err.to_string().contains("more than its data can hold"), "{err}");

    // A delta whose result would be 2^60 bytes, and one whose base lies at the pack's start.
    let mut delta = Vec::new();
    delta_size(2, &mut delta);
    delta_size(1 << 60, &mut delta);
    delta.extend([0x91, 0, 2]);
    assert!(apply_delta(b"ab", &delta, &mut out).is_err());
    let mut ofs = b"PACK\0\0\0\x02\0\0\0\x01".to_vec();
    ofs.extend(entry_start(6, 4));
    ofs.push(12);
    assert!(entry_header(&ofs, 12, hash).is_none(), "a base at offset 0 is no entry");
}
