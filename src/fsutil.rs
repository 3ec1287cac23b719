//! File output that never leaves a file written half-way.

use std::io::Write;
use std::path::Path;

/// Reads at most `limit` bytes of `path` as UTF-8 text: a larger file (or one that never
/// ends, such as `/dev/zero`) is refused after `limit + 1` bytes with "file too large", and no
/// more is read or allocated.
pub fn read_text_bounded(path: &Path, limit: u64) -> std::io::Result<String> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("file too large: more than {limit} bytes (the limit for this kind of file)"),
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not UTF-8 text: {e}"),
        )
    })
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename, so a
/// reader sees either the old file or the whole new one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |f| f.write_all(bytes))
}

/// Creates a temporary file beside `path`, lets `write` fill it, syncs it and renames it to
/// `path`; on any error the temporary file is removed and `path` is untouched. Returns what
/// `write` returned.
pub fn write_atomic_with<T>(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<T>,
) -> std::io::Result<T> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "no file name"))?;
    // Process id and a per-process counter: two threads writing one path never share a file.
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let tmp = dir.join(format!(
        ".{}.tmp-{}-{}",
        name.to_string_lossy(),
        std::process::id(),
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        let out = write(&mut f)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        Ok(out)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bounded_read_stops_at_its_limit() {
        // A file that never ends is refused after limit + 1 bytes.
        let e = read_text_bounded(Path::new("/dev/zero"), 1000).unwrap_err();
        assert!(e.to_string().contains("file too large"), "{e}");
        let dir = std::env::temp_dir().join(format!("bounded-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("t.txt");
        std::fs::write(&f, "x".repeat(1000)).unwrap();
        assert_eq!(read_text_bounded(&f, 1000).unwrap().len(), 1000);
        assert!(read_text_bounded(&f, 999).is_err());
        std::fs::write(&f, [0xff, 0xfe]).unwrap();
        assert!(read_text_bounded(&f, 10)
            .unwrap_err()
            .to_string()
            .contains("not UTF-8"));
        std::fs::remove_dir_all(&dir).ok();
    }
}
