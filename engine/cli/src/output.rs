//! What the command line writes: files (whole, or atomically for results
//! other processes read), counts in words, and the progress lines of a
//! batch of runs. The lowest layer of the command line: it names no other
//! module of it.

use std::path::Path;
use std::time::Instant;

/// Writes `text` to `path`; the error names the file.
pub fn write_file(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

/// Writes `text` to `path` through a temporary file and a rename, so that
/// a reader (another shard, `--skip-existing`, `merge`) never sees half a file.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_file_name(format!(".{}.tmp{}", path.file_name().and_then(|f| f.to_str()).unwrap_or("x"), std::process::id()));
    write_file(&tmp, text)?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

/// `n word` or `n words`: "1 run", "2 runs".
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The progress lines of a batch of runs on stderr, each stamped with the
/// seconds since the batch started (`[12.3s] ...`); safe to share between
/// the threads of a pool.
pub struct Progress {
    t0: Instant,
    done: std::sync::atomic::AtomicUsize,
}

impl Progress {
    /// A batch starting now.
    pub fn start() -> Progress {
        Progress { t0: Instant::now(), done: std::sync::atomic::AtomicUsize::new(0) }
    }
    /// Counts one more run done and returns the count (1 for the first).
    pub fn count(&self) -> usize {
        self.done.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1
    }
    /// Prints `[<seconds>s] <what>` on stderr.
    pub fn say(&self, what: &str) {
        eprintln!("[{:.1}s] {what}", self.t0.elapsed().as_secs_f64());
    }
}

#[cfg(test)]
mod tests {
    use super::plural;

    #[test]
    fn counts_read_as_words() {
        assert_eq!(plural(1, "run"), "1 run");
        assert_eq!(plural(0, "run"), "0 runs");
    }
}
