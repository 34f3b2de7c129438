//! Inflaters lent from one reader to the next in a thread. Setting one up clears and moves its
//! state (about 40 KB: 22,000 instructions, an eighth of what recall ran itself), and recall
//! makes six readers; with a spare kept, it sets up one.

use std::cell::RefCell;
use std::ops::{Deref, DerefMut};

/// How many spare inflaters a thread keeps: readers live side by side at most two at a time on
/// the paths that make many in turn.
const KEPT: usize = 2;

/// Boxed, so lending one moves a pointer, not its state.
type Spare = Option<Box<gix::zlib::Inflate>>;

thread_local! {
    static SPARE: RefCell<[Spare; KEPT]> = const { RefCell::new([const { None }; KEPT]) };
}

/// An inflater, taken from this thread's spares (made when there is none) and given back when
/// dropped. Its stream is whatever the last reader left: [`gix::zlib::Inflate::reset`] it before
/// each new stream, as every reader does.
pub struct Inflater(Option<Box<gix::zlib::Inflate>>);

impl Inflater {
    pub fn new() -> Inflater {
        let spare = SPARE
            .try_with(|spare| spare.borrow_mut().iter_mut().find_map(Option::take))
            .ok()
            .flatten();
        Inflater(Some(spare.unwrap_or_default()))
    }
}

impl Default for Inflater {
    fn default() -> Self {
        Self::new()
    }
}

impl Deref for Inflater {
    type Target = gix::zlib::Inflate;

    fn deref(&self) -> &Self::Target {
        self.0.as_deref().expect("an inflater is only taken when dropped")
    }
}

impl DerefMut for Inflater {
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.0.as_deref_mut().expect("an inflater is only taken when dropped")
    }
}

impl Drop for Inflater {
    fn drop(&mut self) {
        let Some(inflate) = self.0.take() else { return };
        // At a thread's end its spares are gone already: this one is then simply freed.
        let _ = SPARE.try_with(|spare| {
            if let Some(free) = spare.borrow_mut().iter_mut().find(|s| s.is_none()) {
                *free = Some(inflate);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_inflater_is_the_next_one_taken() {
        let first = Inflater::new();
        let at: *const gix::zlib::Inflate = &*first;
        drop(first);
        let second = Inflater::new();
        assert_eq!(at, &*second as *const _);
    }

    #[test]
    fn a_lent_inflater_inflates_a_new_stream_after_a_reset() {
        use std::io::Write;
        let deflate = |data: &[u8]| {
            let mut out =
                gix::zlib::stream::deflate::Write::new(Vec::new(), gix::zlib::Compression::DEFAULT);
            out.write_all(data).unwrap();
            out.flush().unwrap();
            out.into_inner()
        };
        for text in [&b"the first stream"[..], b"a second, longer stream than the first"] {
            let mut inflate = Inflater::new();
            inflate.reset();
            let mut out = vec![0; text.len()];
            let (status, _, written) = inflate.once(&deflate(text), &mut out).unwrap();
            assert_eq!(status, gix::zlib::Status::StreamEnd);
            assert_eq!(&out[..written], text);
        }
    }
}
