//! A ZIP export read in memory (the `zip` crate): its entries by name, each
//! name held to what `fs::SitePath` allows, so an entry named `../x` or
//! `/etc/x` is never a name anything is read as or written to; entries
//! larger than a limit are not read.

use std::io::{Cursor, Read};

use crate::fs::SitePath;

/// The largest entry read (a post's HTML or an image): 64 MB.
const ENTRY_LIMIT: u64 = 64 << 20;

pub(crate) struct Archive {
    zip: zip::ZipArchive<Cursor<Vec<u8>>>,
    /// The entries that are files, by their plain names, in the archive's order.
    names: Vec<(SitePath, usize)>,
    /// Entries whose names are not plain relative paths: never read.
    pub hostile: Vec<String>,
}

impl Archive {
    pub fn new(bytes: Vec<u8>) -> Result<Archive, String> {
        let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| e.to_string())?;
        let mut names = Vec::new();
        let mut hostile = Vec::new();
        for index in 0..zip.len() {
            let entry = zip.by_index_raw(index).map_err(|e| e.to_string())?;
            let name = String::from_utf8_lossy(entry.name_raw()).into_owned();
            if name.ends_with('/') {
                continue;
            }
            match SitePath::new(&name) {
                Ok(path) => names.push((path, index)),
                Err(_) => hostile.push(name),
            }
        }
        Ok(Archive { zip, names, hostile })
    }

    /// The names of the files, in the archive's order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(|(name, _)| name.as_str())
    }

    /// The bytes of the file `name`.
    pub fn read(&mut self, name: &str) -> Result<Vec<u8>, String> {
        let index = self
            .names
            .iter()
            .find(|(path, _)| path.as_str() == name)
            .map(|(_, index)| *index)
            .ok_or_else(|| format!("`{name}` is not in the archive"))?;
        let entry = self.zip.by_index(index).map_err(|e| format!("`{name}`: {e}"))?;
        if entry.size() > ENTRY_LIMIT {
            return Err(format!("`{name}` is larger than {} MB", ENTRY_LIMIT >> 20));
        }
        let mut bytes = Vec::with_capacity(usize::try_from(entry.size()).unwrap_or(0));
        entry.take(ENTRY_LIMIT + 1).read_to_end(&mut bytes).map_err(|e| format!("`{name}`: {e}"))?;
        if bytes.len() as u64 > ENTRY_LIMIT {
            return Err(format!("`{name}` is larger than {} MB", ENTRY_LIMIT >> 20));
        }
        Ok(bytes)
    }

    /// The text of the file `name` (UTF-8, a bad byte replaced).
    pub fn text(&mut self, name: &str) -> Result<String, String> {
        self.read(name).map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::io::Write;

    use super::*;

    /// A ZIP of `files` (name, bytes), names as given, hostile ones too.
    pub fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
        let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        for (name, bytes) in files {
            out.start_file(*name, options).unwrap();
            out.write_all(bytes).unwrap();
        }
        out.finish().unwrap().into_inner()
    }

    #[test]
    fn entries_with_names_that_climb_out_are_never_read() {
        let bytes =
            zip_of(&[("posts/a.html", b"<p>a</p>"), ("../x", b"x"), ("/etc/passwd", b"y"), ("a/../../b", b"z")]);
        let mut archive = Archive::new(bytes).unwrap();
        assert_eq!(archive.names().collect::<Vec<_>>(), ["posts/a.html"]);
        assert_eq!(archive.hostile, ["../x", "/etc/passwd", "a/../../b"]);
        assert_eq!(archive.text("posts/a.html").unwrap(), "<p>a</p>");
        assert!(archive.read("../x").is_err());
        assert!(Archive::new(b"PK\x03\x04 not a zip".to_vec()).is_err());
    }
}
