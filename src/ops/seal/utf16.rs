//! UTF-16 text in a file seal scans: told from binary data by a byte-order mark or by NULs between
//! ASCII letters, and decoded so the secrets guard reads the text it holds (a token in a file saved
//! as UTF-16 by a Windows editor is still a token).

/// Which byte of a UTF-16 unit comes first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Order {
    Little,
    Big,
}

/// Bytes looked at to tell UTF-16 text without a BOM.
const SAMPLE: usize = 1024;

/// The byte order of `bytes` (a file's start) when they are UTF-16 text.
pub(super) fn detect(bytes: &[u8]) -> Option<Order> {
    match bytes {
        [0xff, 0xfe, ..] => return Some(Order::Little),
        [0xfe, 0xff, ..] => return Some(Order::Big),
        _ => {}
    }
    let sample = &bytes[..bytes.len().min(SAMPLE) & !1];
    let pairs = sample.len() / 2;
    if pairs < 4 {
        return None;
    }
    let (mut little, mut big) = (0, 0);
    for pair in sample.chunks_exact(2) {
        match pair {
            [c, 0] if c.is_ascii() && *c != 0 => little += 1,
            [0, c] if c.is_ascii() && *c != 0 => big += 1,
            _ => {}
        }
    }
    // Most units ASCII with a NUL on one side: text, not data with stray zeros.
    if little * 10 >= pairs * 7 {
        Some(Order::Little)
    } else if big * 10 >= pairs * 7 {
        Some(Order::Big)
    } else {
        None
    }
}

/// `bytes` decoded as UTF-16 in `order` (a BOM skipped, an odd last byte and unpaired surrogates
/// replaced).
pub(super) fn decode(bytes: &[u8], order: Order) -> String {
    let bytes = match bytes {
        [0xff, 0xfe, rest @ ..] | [0xfe, 0xff, rest @ ..] => rest,
        _ => bytes,
    };
    let units = bytes.chunks_exact(2).map(|p| match order {
        Order::Little => u16::from_le_bytes([p[0], p[1]]),
        Order::Big => u16::from_be_bytes([p[0], p[1]]),
    });
    char::decode_utf16(units).map(|c| c.unwrap_or('\u{FFFD}')).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wide(text: &str, order: Order, bom: bool) -> Vec<u8> {
        let mut out = Vec::new();
        if bom {
            out.extend(match order {
                Order::Little => [0xff, 0xfe],
                Order::Big => [0xfe, 0xff],
            });
        }
        for unit in text.encode_utf16() {
            out.extend(match order {
                Order::Little => unit.to_le_bytes(),
                Order::Big => unit.to_be_bytes(),
            });
        }
        out
    }

    #[test]
    fn utf16_is_told_and_decoded() {
        for order in [Order::Little, Order::Big] {
            for bom in [true, false] {
                let bytes = wide("API_KEY=Zx81kQp0vB3nR7\r\nnext line é\n", order, bom);
                assert_eq!(detect(&bytes), Some(order), "{order:?} {bom}");
                assert_eq!(decode(&bytes, order), "API_KEY=Zx81kQp0vB3nR7\r\nnext line é\n");
            }
        }
        assert_eq!(detect(b"plain ASCII text, nothing wide"), None);
        assert_eq!(detect(&[0u8; 64]), None);
        assert_eq!(detect(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10"), None);
    }
}
