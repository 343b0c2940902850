//! Writing artifacts: only when their bytes change (no needless rebuilds), atomically
//! (a temporary file renamed into place), and never when anything failed.

use std::io::Write;
use std::path::{Path, PathBuf};

/// One generated file: its name in the output directory and its exact bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Artifact {
    /// File name, relative to the output directory.
    pub name: String,
    /// Contents.
    pub bytes: Vec<u8>,
}

/// What a write did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WriteReport {
    /// Files whose bytes changed and were written.
    pub written: Vec<String>,
    /// Files already up to date, left untouched.
    pub unchanged: Vec<String>,
}

/// Writes every artifact into `dir` (created if missing). Each changed one is first written
/// beside its file, each on a thread of its own (copying a large module into the file system is
/// a tenth of a large generation's time, and the files share nothing); only once every one is
/// written are they renamed into place, so that a write that fails (a full disk, a name taken by
/// a folder) leaves every file as it was. The report lists them in the order given; the first
/// error in that order is the one returned.
pub fn write_all(dir: &Path, artifacts: &[Artifact]) -> std::io::Result<WriteReport> {
    std::fs::create_dir_all(dir)?;
    // Writing a file recurses nowhere: a stack of 1 MiB.
    let staged = crate::threads::each(artifacts, 1 << 20, |a: &Artifact| stage(&dir.join(&a.name), &a.bytes));
    let (mut temps, mut failed) = (Vec::new(), None);
    for result in staged {
        match result {
            Ok(tmp) => temps.push(tmp),
            Err(e) => {
                failed.get_or_insert(e);
                temps.push(None);
            }
        }
    }
    let discard = |temps: &[Option<PathBuf>]| {
        for tmp in temps.iter().flatten() {
            let _ = std::fs::remove_file(tmp);
        }
    };
    if let Some(e) = failed {
        discard(&temps);
        return Err(e);
    }
    let mut report = WriteReport::default();
    for (i, a) in artifacts.iter().enumerate() {
        let Some(tmp) = &temps[i] else {
            report.unchanged.push(a.name.clone());
            continue;
        };
        if let Err(e) = std::fs::rename(tmp, dir.join(&a.name)) {
            discard(&temps[i..]);
            return Err(e);
        }
        report.written.push(a.name.clone());
    }
    Ok(report)
}

/// Writes `bytes` to `path` unless it already holds exactly them. Returns whether it wrote.
pub fn write_if_changed(path: &Path, bytes: &[u8]) -> std::io::Result<bool> {
    let Some(tmp) = stage(path, bytes)? else { return Ok(false) };
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })?;
    Ok(true)
}

/// `bytes` written and synced to a temporary file beside `path`, to be renamed onto it; `None`
/// when `path` already holds exactly them. Nothing is left behind when the write fails.
fn stage(path: &Path, bytes: &[u8]) -> std::io::Result<Option<PathBuf>> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(None);
    }
    // Renaming onto a folder fails: found now, before any file is renamed.
    if path.is_dir() {
        return Err(std::io::Error::new(std::io::ErrorKind::IsADirectory, format!("{} is a folder", path.display())));
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()
    })();
    match result {
        Ok(()) => Ok(Some(tmp)),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_only_changed_bytes_and_leaves_no_temporary_file() {
        let dir = std::env::temp_dir().join(format!("stitchgen-out-{}", std::process::id()));
        let a = [Artifact { name: "a.json".into(), bytes: b"{}\n".to_vec() }];
        let first = write_all(&dir, &a).unwrap();
        assert_eq!(first.written, ["a.json"]);
        let mtime = std::fs::metadata(dir.join("a.json")).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        let second = write_all(&dir, &a).unwrap();
        assert_eq!((second.written.len(), second.unchanged.len()), (0, 1));
        assert_eq!(
            std::fs::metadata(dir.join("a.json")).unwrap().modified().unwrap(),
            mtime,
            "an unchanged file is not touched"
        );
        let changed = [Artifact { name: "a.json".into(), bytes: b"[]\n".to_vec() }];
        assert_eq!(write_all(&dir, &changed).unwrap().written, ["a.json"]);
        assert_eq!(std::fs::read(dir.join("a.json")).unwrap(), b"[]\n");
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["a.json"], "no temporary file is left behind");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_failed_write_changes_no_file() {
        let dir = std::env::temp_dir().join(format!("stitchgen-out-fail-{}", std::process::id()));
        let old = [Artifact { name: "a.json".into(), bytes: b"{}\n".to_vec() }];
        write_all(&dir, &old).unwrap();
        // A name taken by a folder, and one in a folder that does not exist: neither is written.
        std::fs::create_dir_all(dir.join("b.json")).unwrap();
        for other in ["b.json", "missing/c.json"] {
            let new = [
                Artifact { name: "a.json".into(), bytes: b"[]\n".to_vec() },
                Artifact { name: other.into(), bytes: b"[]\n".to_vec() },
            ];
            assert!(write_all(&dir, &new).is_err(), "{other}");
            assert_eq!(std::fs::read(dir.join("a.json")).unwrap(), b"{}\n", "a.json is as it was ({other})");
        }
        let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        names.sort();
        assert_eq!(names, ["a.json", "b.json"], "no temporary file is left behind");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
