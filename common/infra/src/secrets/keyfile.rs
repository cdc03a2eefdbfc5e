//! The generated key file of the embedded setup: created once, atomically, owner-only.
//!
//! A new key is written in full to a private temporary file in the same directory, synced,
//! and then hard-linked to its final name. Linking never replaces an existing file, so when
//! several processes start at once exactly one key wins and the others read it back.

use std::{
    fs,
    io::{self, Write},
    path::{Path, PathBuf},
};

use secrecy::ExposeSecret;

use super::{SecretKey, SecretsError};

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> SecretsError + '_ {
    move |source| SecretsError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Reads the key at `path`, creating it first when it does not exist.
pub(super) fn load_or_create(path: &Path) -> Result<SecretKey, SecretsError> {
    match read(path) {
        Err(SecretsError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => {}
        other => return other,
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(io_error(dir))?;
    }
    let key = SecretKey::generate();
    let temp = temp_path(path);
    let written = write_private(&temp, key.to_base64().expose_secret());
    let linked = written.and_then(|()| fs::hard_link(&temp, path));
    let _ = fs::remove_file(&temp);
    match linked {
        Ok(()) => {
            sync_dir(path);
            tracing::info!(path = %path.display(), key.id = %key.id(), "generated secret key");
            Ok(key)
        }
        // Another process created it between our read and our link: use theirs.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => read(path),
        Err(e) => Err(io_error(path)(e)),
    }
}

/// Reads and checks an existing key file.
fn read(path: &Path) -> Result<SecretKey, SecretsError> {
    let meta = fs::metadata(path).map_err(io_error(path))?;
    check_permissions(path, &meta)?;
    let text = zeroize::Zeroizing::new(fs::read_to_string(path).map_err(io_error(path))?);
    SecretKey::parse(&text).map_err(|e| SecretsError::KeyFile {
        path: path.to_path_buf(),
        reason: match e {
            SecretsError::BadKey(why) => format!("does not hold a 32-byte key: {why}"),
            other => other.to_string(),
        },
    })
}

#[cfg(unix)]
fn check_permissions(path: &Path, meta: &fs::Metadata) -> Result<(), SecretsError> {
    use std::os::unix::fs::PermissionsExt;
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(SecretsError::KeyFile {
            path: path.to_path_buf(),
            reason: format!(
                "is accessible by group or others (mode {mode:o}); refusing to use it. \
                 Restrict it with `chmod 600 {}` (and consider the key exposed)",
                path.display()
            ),
        });
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_permissions(_path: &Path, _meta: &fs::Metadata) -> Result<(), SecretsError> {
    Ok(())
}

fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "secret.key".into());
    path.with_file_name(format!(
        ".{name}.tmp-{}-{}",
        std::process::id(),
        rand::random::<u32>()
    ))
}

/// Creates `path` (which must not exist) readable and writable by its owner only.
fn write_private(path: &Path, contents: &str) -> io::Result<()> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    // The umask can only remove bits, but set the mode explicitly all the same.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(fs::Permissions::from_mode(0o600))?;
    }
    file.write_all(contents.as_bytes())?;
    file.write_all(b"\n")?;
    file.sync_all()
}

fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(d) = fs::File::open(dir)
    {
        let _ = d.sync_all();
    }
}
