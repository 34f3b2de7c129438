//! New objects stored as one pack: a version 2 pack stream (`gitformat-pack`, no deltas) and its
//! version 2 index, both made here and put into an object directory (seal's quarantine) as git's
//! `index-pack` would leave them: `pack-<checksum>.pack`, then `pack-<checksum>.idx`, read-only.
//! One pack instead of a loose file per object: on a tree of many directories, creating those
//! files was most of what `git write-tree` cost; and with no `index-pack` to start, storing the
//! seal's trees costs no process (the test compares each index with the one `index-pack` writes).

use std::collections::HashSet;
use std::ffi::OsString;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use anyhow::{Context, Result};
use gix::ObjectId;
use gix::objs::Kind;

/// How a pack is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pack {
    /// In a repository (seal's quarantine): each object deflated; with `flush`, the pack and its
    /// index reach the disk before they are named.
    Kept { flush: bool },
    /// For gits to read before the caller removes it (the snapshot's narrowed diff): each object
    /// stored in zlib's uncompressed blocks, which needs no compressor (see [`Deflater`]), never
    /// flushed.
    Temporary,
}

/// Stores `objects` (kind and content) as one new pack in the object directory `objects_dir`,
/// kept as `pack` says.
pub fn write_objects(
    objects_dir: &Path,
    hash: gix::hash::Kind,
    objects: &[(Kind, Vec<u8>)],
    pack: Pack,
) -> Result<()> {
    if objects.is_empty() {
        return Ok(());
    }
    let mut stream = Vec::with_capacity(objects.iter().map(|(_, data)| data.len() / 2 + 8).sum());
    stream.extend_from_slice(b"PACK");
    stream.extend_from_slice(&2u32.to_be_bytes());
    stream.extend_from_slice(&[0; 4]);
    let mut entries = Vec::with_capacity(objects.len());
    let mut seen = HashSet::with_capacity(objects.len());
    let mut deflater = Deflater::default();
    for (kind, data) in objects {
        let id = gix::objs::compute_hash(hash, *kind, data).context("hashing an object")?;
        if !seen.insert(id) {
            continue;
        }
        let offset = stream.len();
        entry_header(&mut stream, pack_type(*kind), data.len() as u64);
        match pack {
            Pack::Kept { .. } => deflater.deflate(data, &mut stream)?,
            Pack::Temporary => store(data, &mut stream),
        }
        entries.push(Entry { id, offset: offset as u64, crc: crc32fast::hash(&stream[offset..]) });
    }
    let count = u32::try_from(entries.len()).context("too many objects for one pack")?;
    stream[8..12].copy_from_slice(&count.to_be_bytes());
    let trailer = checksum(hash, &stream)?;
    stream.extend_from_slice(trailer.as_slice());
    let index = index_v2(hash, &mut entries, &trailer)?;

    let dir = objects_dir.join("pack");
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let name = format!("pack-{}", trailer.to_hex());
    // The pack first: git takes a pack for present once its index is there.
    for (ext, bytes) in [("pack", &stream), ("idx", &index)] {
        let to = dir.join(format!("{name}.{ext}"));
        let mut file = tempfile::Builder::new()
            .prefix(&format!("tmp_{ext}_"))
            .tempfile_in(&dir)
            .with_context(|| format!("creating a temporary file in {}", dir.display()))?;
        file.write_all(bytes).with_context(|| format!("writing {}", to.display()))?;
        if pack == (Pack::Kept { flush: true }) {
            file.as_file().sync_all().with_context(|| format!("flushing {}", to.display()))?;
        }
        file.as_file().set_permissions(std::fs::Permissions::from_mode(0o444))?;
        file.persist(&to).with_context(|| format!("storing {}", to.display()))?;
    }
    Ok(())
}

/// One zlib stream after another into a pack, through one compressor reset between objects (as a
/// new one starts). Setting up a compressor zeroes its window and hash tables, which cost more
/// than deflating a small tree: a snapshot of a 30,000-file tree spent 116M of its 199M
/// instructions setting up one for each of the 240 trees of its narrowed diff.
struct Deflater {
    compress: gix_zlib::stream::deflate::Compress,
    buf: Vec<u8>,
}

impl Default for Deflater {
    fn default() -> Deflater {
        let compress = gix_zlib::stream::deflate::Compress::new(gix_zlib::Compression::BEST_SPEED);
        Deflater { compress, buf: vec![0; 1 << 15] }
    }
}

impl Deflater {
    /// Appends `data` to `out` as one zlib stream.
    fn deflate(&mut self, data: &[u8], out: &mut Vec<u8>) -> Result<()> {
        use gix_zlib::stream::deflate::FlushCompress;
        self.compress.reset();
        self.run(data, FlushCompress::None, out)?;
        self.run(&[], FlushCompress::Finish, out)
    }

    /// Feeds `input` with `flush` until it is consumed (finishing: until the stream ends).
    fn run(
        &mut self,
        mut input: &[u8],
        flush: gix_zlib::stream::deflate::FlushCompress,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        loop {
            let (read, wrote) = (self.compress.total_in(), self.compress.total_out());
            let status = self
                .compress
                .compress(input, &mut self.buf, flush)
                .map_err(|err| anyhow::anyhow!("compressing an object: {err}"))?;
            let written = usize::try_from(self.compress.total_out() - wrote)?;
            out.extend_from_slice(&self.buf[..written]);
            input = &input[usize::try_from(self.compress.total_in() - read)?..];
            let finishing = flush == gix_zlib::stream::deflate::FlushCompress::Finish;
            if status == gix_zlib::Status::StreamEnd || (!finishing && input.is_empty()) {
                return Ok(());
            }
            if written == 0 && self.compress.total_in() == read {
                anyhow::bail!("compressing an object: zlib made no progress");
            }
        }
    }
}

/// Appends `data` to `out` as a zlib stream of stored (uncompressed) deflate blocks (RFC 1950 and
/// RFC 1951, 3.2.4): the header, blocks of at most 65,535 bytes (the last one marked final), and
/// the Adler-32 of `data`.
fn store(data: &[u8], out: &mut Vec<u8>) {
    // Deflate, a 32 KiB window, no dictionary, the fastest level named; 0x7801 is a multiple of 31.
    out.extend_from_slice(&[0x78, 0x01]);
    let mut blocks = data.chunks(usize::from(u16::MAX)).peekable();
    if data.is_empty() {
        out.extend_from_slice(&[1, 0, 0, 0xff, 0xff]);
    }
    while let Some(block) = blocks.next() {
        out.push(u8::from(blocks.peek().is_none()));
        let len = u16::try_from(block.len()).unwrap_or(u16::MAX);
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(block);
    }
    out.extend_from_slice(&adler32(data).to_be_bytes());
}

/// The Adler-32 checksum of `data` (RFC 1950, 8.2), the sums reduced every 5,552 bytes, as
/// zlib reduces them (the most that cannot overflow 32 bits).
fn adler32(data: &[u8]) -> u32 {
    const BASE: u32 = 65_521;
    let (mut a, mut b) = (1u32, 0u32);
    for chunk in data.chunks(5552) {
        for &byte in chunk {
            a += u32::from(byte);
            b += a;
        }
        a %= BASE;
        b %= BASE;
    }
    (b << 16) | a
}

struct Entry {
    id: ObjectId,
    offset: u64,
    crc: u32,
}

fn checksum(hash: gix::hash::Kind, bytes: &[u8]) -> Result<ObjectId> {
    let mut hasher = gix::hash::hasher(hash);
    hasher.update(bytes);
    hasher.try_finalize().context("hashing a pack")
}

/// The kind of tree entry an index or tree mode is, for a tree editor; `None` for a mode no tree
/// entry of a file can have.
pub fn entry_kind(mode: u32) -> Option<gix::objs::tree::EntryKind> {
    use gix::objs::tree::EntryKind;
    Some(match mode {
        0o100644 => EntryKind::Blob,
        0o100755 => EntryKind::BlobExecutable,
        0o120000 => EntryKind::Link,
        0o160000 => EntryKind::Commit,
        _ => return None,
    })
}

/// The tree `editor` holds, its new trees stored as one pack in `objects_dir` (see
/// [`write_objects`]): the root's id.
pub fn write_tree(
    editor: &mut gix::objs::tree::Editor<'_>,
    objects_dir: &Path,
    hash: gix::hash::Kind,
    pack: Pack,
) -> Result<ObjectId> {
    let mut trees = Vec::new();
    let root = editor.write(|tree| -> Result<ObjectId> {
        // A tree read out of git's order (a corrupt one, which fsck calls `treeNotSorted`) keeps
        // that order in the editor; gix would write it so (and asserts against it in a debug
        // build). The caller's way back, git's own plumbing, sorts it.
        anyhow::ensure!(tree.entries.is_sorted(), "a tree to rewrite is out of git's order");
        let mut data = Vec::new();
        gix::objs::WriteTo::write_to(tree, &mut data)?;
        let id = gix::objs::compute_hash(hash, Kind::Tree, &data)?;
        trees.push((Kind::Tree, data));
        Ok(id)
    })?;
    write_objects(objects_dir, hash, &trees, pack)?;
    Ok(root)
}

/// `GIT_ALTERNATE_OBJECT_DIRECTORIES` for a git that is to read the object directory `dir` as
/// well: `dir` first (quoted when it holds the separator), then what the environment already names.
pub fn alternates_with(dir: &Path) -> OsString {
    let text = dir.display().to_string();
    let mut alternates = OsString::from(match text.contains([':', '"', '\\']) {
        true => format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\"")),
        false => text,
    });
    if let Some(more) =
        std::env::var_os("GIT_ALTERNATE_OBJECT_DIRECTORIES").filter(|v| !v.is_empty())
    {
        alternates.push(":");
        alternates.push(more);
    }
    alternates
}

/// The version 2 index of a pack (`gitformat-pack`): the fan-out table, the ids in order, their
/// CRC32s and offsets (those past 2 GiB in a table of their own), the pack's checksum, and the
/// index's own.
fn index_v2(hash: gix::hash::Kind, entries: &mut [Entry], pack: &ObjectId) -> Result<Vec<u8>> {
    entries.sort_by_key(|e| e.id);
    let mut out = Vec::with_capacity(8 + 256 * 4 + entries.len() * (hash.len_in_bytes() + 8) + 40);
    out.extend_from_slice(b"\xfftOc");
    out.extend_from_slice(&2u32.to_be_bytes());
    let mut fanout = [0u32; 256];
    for entry in entries.iter() {
        fanout[usize::from(entry.id.as_bytes()[0])] += 1;
    }
    let mut total = 0u32;
    for count in fanout {
        total += count;
        out.extend_from_slice(&total.to_be_bytes());
    }
    for entry in entries.iter() {
        out.extend_from_slice(entry.id.as_bytes());
    }
    for entry in entries.iter() {
        out.extend_from_slice(&entry.crc.to_be_bytes());
    }
    let mut large = Vec::new();
    for entry in entries.iter() {
        let small = match u32::try_from(entry.offset) {
            Ok(offset) if offset < 0x8000_0000 => offset,
            _ => {
                large.push(entry.offset);
                0x8000_0000 | u32::try_from(large.len() - 1)?
            }
        };
        out.extend_from_slice(&small.to_be_bytes());
    }
    for offset in large {
        out.extend_from_slice(&offset.to_be_bytes());
    }
    out.extend_from_slice(pack.as_slice());
    let own = checksum(hash, &out)?;
    out.extend_from_slice(own.as_slice());
    Ok(out)
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

    /// The pack is read back by git, and its index is the one `git index-pack` makes of it.
    #[test]
    fn the_pack_and_its_index_are_what_git_index_pack_makes() {
        for pack in [Pack::Kept { flush: false }, Pack::Temporary] {
            pack_and_index_as_git_makes_them(pack);
        }
    }

    fn pack_and_index_as_git_makes_them(pack: Pack) {
        let dir = tempfile::tempdir().unwrap();
        let git = |args: &[&str]| {
            let out = std::process::Command::new("git")
                .args(args)
                .current_dir(dir.path())
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .env("GIT_DIR", dir.path().join("repo.git"))
                .output()
                .unwrap();
            assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
            out.stdout
        };
        git(&["init", "-q", "--bare", "repo.git"]);
        let objects_dir = dir.path().join("repo.git/objects");
        // Over 65,535 bytes: two stored blocks.
        let big = (0..140_000).map(|n| (n % 251) as u8).collect::<Vec<u8>>();
        let big_id = gix::objs::compute_hash(gix::hash::Kind::Sha1, Kind::Blob, &big).unwrap();
        let blob = b"hello\n".to_vec();
        let blob_id = gix::objs::compute_hash(gix::hash::Kind::Sha1, Kind::Blob, &blob).unwrap();
        let mut tree = b"100644 a\0".to_vec();
        tree.extend_from_slice(blob_id.as_bytes());
        let objects = vec![
            (Kind::Blob, blob.clone()),
            (Kind::Tree, tree),
            (Kind::Blob, big.clone()),
            (Kind::Blob, Vec::new()),
            // The same object twice is stored once.
            (Kind::Blob, blob),
        ];
        write_objects(&objects_dir, gix::hash::Kind::Sha1, &objects, pack).unwrap();
        let pack_dir = objects_dir.join("pack");
        let mut names: Vec<_> = std::fs::read_dir(&pack_dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names.len(), 2, "{names:?}");
        let pack = pack_dir.join(&names[1]);
        assert!(names[0].ends_with(".idx") && names[1].ends_with(".pack"), "{names:?}");
        let ours = std::fs::read(pack_dir.join(&names[0])).unwrap();
        let check = dir.path().join("check.idx");
        git(&["index-pack", "-o", check.to_str().unwrap(), pack.to_str().unwrap()]);
        assert_eq!(ours, std::fs::read(&check).unwrap(), "the index differs from git's");
        let listed = git(&["verify-pack", "-v", pack.to_str().unwrap()]);
        assert!(String::from_utf8_lossy(&listed).contains("non delta: 4 objects"));
        assert_eq!(git(&["cat-file", "-p", &blob_id.to_string()]), b"hello\n");
        assert_eq!(git(&["cat-file", "-p", &big_id.to_string()]), big);
        let mode = std::fs::metadata(&pack).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o444);
    }

    #[test]
    fn stored_streams_inflate_to_their_data() {
        for len in [0usize, 1, 65_535, 65_536, 200_000] {
            let data: Vec<u8> = (0..len).map(|n| (n * 7 % 256) as u8).collect();
            let mut stream = Vec::new();
            store(&data, &mut stream);
            let mut out = vec![0; len];
            let mut inflate = gix::zlib::Inflate::default();
            let (status, read, wrote) = inflate.once(&stream, &mut out).unwrap();
            assert_eq!((status, read, wrote), (gix::zlib::Status::StreamEnd, stream.len(), len));
            assert_eq!(out, data);
        }
        // zlib's own checksum of the classic example.
        assert_eq!(adler32(b"Wikipedia"), 0x11e6_0398);
    }

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
