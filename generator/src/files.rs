//! Writing files so that a reader never sees half of one: a temporary sibling, then a
//! rename. What `seed` and `workspace` write goes through here.

use std::fs;
use std::path::Path;

/// Writes a file by writing a temporary sibling and renaming it over the target.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = write_temp(path, bytes)?;
    fs::rename(&tmp, path).map_err(|e| format!("cannot replace {}: {e}", path.display()))
}

/// Writes `bytes` to a temporary sibling of `path` (creating its folder) and returns the
/// sibling's path, for the caller to rename into place.
pub fn write_temp(path: &Path, bytes: &[u8]) -> Result<std::path::PathBuf, String> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    // `name.ext` → `name.ext.tmp~`: distinct for files that differ only in extension.
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp~");
    let tmp = path.with_file_name(name);
    fs::write(&tmp, bytes).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    Ok(tmp)
}
