//! A ZIP archive read in memory, never extracted to disk: its central directory listed within
//! limits (the entries' count, each entry's size and their total, as their headers declare them),
//! and an entry inflated (by flate2) only while the bytes it yields stay within what its header
//! declared, its CRC-32 checked. Stored and deflated entries only; no ZIP64, no encryption, no
//! archive split over disks: a LinkedIn data export needs none of them.
//!
//! The `zip` crate was measured for this first (9.9, no default features, `deflate-flate2`): it
//! and what it pulls in (typed-path, zeroize_derive, constant_time_eq) took 12.8 s of a debug
//! build's compile, and it turned on zeroize's `derive` feature, which rebuilt rustls, reqwest
//! and lettre; the little this import needs is written here instead, on the flate2 the server
//! already has.

use std::fmt;
use std::io::Read;

/// What an archive may hold.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Entries at most, folders counted.
    pub entries: usize,
    /// Each entry's size at most, uncompressed.
    pub entry_bytes: u64,
    /// All entries' sizes at most, uncompressed.
    pub total_bytes: u64,
}

/// Why an archive was refused, said of the file (`file: <this>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ZipError {
    /// Not a ZIP, or one whose directory does not hold together.
    Damaged(String),
    TooManyEntries {
        count: usize,
        most: usize,
    },
    EntryTooLarge {
        name: String,
        bytes: u64,
        most: u64,
    },
    TooLarge {
        bytes: u64,
        most: u64,
    },
    /// An entry that inflates past the size its header declared: the mark of a ZIP bomb.
    Bomb {
        name: String,
        declared: u64,
    },
    Unsupported(String),
}

impl fmt::Display for ZipError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ZipError::Damaged(why) => write!(f, "is not a readable ZIP: {why}"),
            ZipError::TooManyEntries { count, most } => write!(
                f,
                "is a ZIP of {count} entries; at most {most} are read (a LinkedIn export has about 40)"
            ),
            ZipError::EntryTooLarge { name, bytes, most } => write!(
                f,
                "is a ZIP whose entry {name} would inflate to {}; at most {} an entry are read",
                megabytes(*bytes),
                megabytes(*most)
            ),
            ZipError::TooLarge { bytes, most } => write!(
                f,
                "is a ZIP whose entries would inflate to {} in all; at most {} are read",
                megabytes(*bytes),
                megabytes(*most)
            ),
            ZipError::Bomb { name, declared } => write!(
                f,
                "is a ZIP whose entry {name} inflates past the {declared} bytes its header declares \
                 (a ZIP bomb?): nothing was read"
            ),
            ZipError::Unsupported(why) => write!(f, "is a ZIP this import cannot read: {why}"),
        }
    }
}

/// `bytes` as people say it: `5 MB`, `52.4 MB`, `812 KB` (1 MB = 1024 × 1024 bytes).
fn megabytes(bytes: u64) -> String {
    const MB: u64 = 1024 * 1024;
    if bytes < MB {
        format!("{} KB", bytes.div_ceil(1024))
    } else if bytes.is_multiple_of(MB) {
        format!("{} MB", bytes / MB)
    } else {
        format!("{:.1} MB", bytes as f64 / MB as f64)
    }
}

/// An entry as the central directory lists it.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Its path in the archive, `/` between folders.
    pub name: String,
    method: u16,
    flags: u16,
    crc: u32,
    compressed: u64,
    /// Its size uncompressed, as declared.
    pub size: u64,
    local_header: u64,
}

impl Entry {
    /// Whether it is a folder rather than a file.
    pub fn is_folder(&self) -> bool {
        self.name.ends_with('/')
    }

    /// Its file name, without the folders it is in.
    pub fn file_name(&self) -> &str {
        self.name.rsplit('/').next().unwrap_or_default()
    }
}

/// An archive in memory, its directory read and checked against the limits.
pub struct Archive<'a> {
    data: &'a [u8],
    limits: Limits,
    pub entries: Vec<Entry>,
    /// Bytes inflated so far, across entries.
    inflated: u64,
}

/// The first bytes of a ZIP (a local file header, or the end of an empty archive's directory).
pub fn looks_like_zip(data: &[u8]) -> bool {
    data.starts_with(b"PK\x03\x04") || data.starts_with(b"PK\x05\x06")
}

const END_SIGNATURE: u32 = 0x0605_4b50;
const ZIP64_LOCATOR_SIGNATURE: u32 = 0x0706_4b50;
const DIRECTORY_SIGNATURE: u32 = 0x0201_4b50;
const LOCAL_SIGNATURE: u32 = 0x0403_4b50;
const END_LENGTH: usize = 22;
const DIRECTORY_LENGTH: usize = 46;
const LOCAL_LENGTH: usize = 30;

fn u16_at(data: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(data.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(data.get(at..at + 4)?.try_into().ok()?))
}

fn damaged(why: &str) -> ZipError {
    ZipError::Damaged(why.to_owned())
}

impl<'a> Archive<'a> {
    /// Reads the directory of `data`: refused when it holds more entries than the limits allow,
    /// or declares an entry or a total larger than they allow.
    pub fn open(data: &'a [u8], limits: Limits) -> Result<Self, ZipError> {
        let end = find_end(data).ok_or_else(|| {
            damaged("it has no end of central directory (it is cut short, or not a ZIP)")
        })?;
        let field16 = |offset: usize| u16_at(data, end + offset).unwrap_or_default();
        let field32 = |offset: usize| u32_at(data, end + offset).unwrap_or_default();
        if field16(4) != 0 || field16(6) != 0 {
            return Err(ZipError::Unsupported(
                "it is split over several disks".into(),
            ));
        }
        let count = field16(10);
        let (size, offset) = (field32(12), field32(16));
        let zip64 = end >= 20 && u32_at(data, end - 20) == Some(ZIP64_LOCATOR_SIGNATURE);
        if zip64 || count == u16::MAX || size == u32::MAX || offset == u32::MAX {
            return Err(ZipError::Unsupported(
                "it is a ZIP64 archive, which no export this small needs".into(),
            ));
        }
        let count = usize::from(count);
        if count > limits.entries {
            return Err(ZipError::TooManyEntries {
                count,
                most: limits.entries,
            });
        }
        let (size, offset) = (size as usize, offset as usize);
        if offset.checked_add(size).is_none_or(|stop| stop > end) {
            return Err(damaged("its central directory lies outside the file"));
        }
        let entries = read_directory(&data[offset..offset + size], count, limits)?;
        Ok(Archive {
            data,
            limits,
            entries,
            inflated: 0,
        })
    }

    /// The bytes of entry `index`, inflated and checked: refused as a bomb as soon as it yields
    /// more than its header declared, and as damaged when it yields less or its CRC differs.
    pub fn read(&mut self, index: usize) -> Result<Vec<u8>, ZipError> {
        let entry = self
            .entries
            .get(index)
            .ok_or_else(|| damaged("an entry is missing"))?
            .clone();
        if entry.flags & 1 != 0 {
            return Err(ZipError::Unsupported(format!(
                "{} is encrypted",
                entry.name
            )));
        }
        let raw = self.raw_data(&entry)?;
        // Never more than the header declared (itself within the limits), nor than what is left
        // of the total; one byte more is asked for, to see whether it goes on.
        let left = self.limits.total_bytes.saturating_sub(self.inflated);
        let allowed = entry.size.min(self.limits.entry_bytes).min(left);
        let mut out = Vec::with_capacity(usize::try_from(allowed).unwrap_or(0).min(1 << 20));
        let read = match entry.method {
            0 => Read::take(raw, allowed + 1).read_to_end(&mut out),
            8 => Read::take(flate2::read::DeflateDecoder::new(raw), allowed + 1)
                .read_to_end(&mut out),
            method => return Err(unsupported_method(&entry.name, method)),
        };
        read.map_err(|_| ZipError::Damaged(format!("{} does not inflate", entry.name)))?;
        let got = out.len() as u64;
        if got > allowed {
            return Err(ZipError::Bomb {
                name: entry.name,
                declared: entry.size,
            });
        }
        self.inflated += got;
        if got < entry.size {
            return Err(ZipError::Damaged(format!(
                "{} is shorter than its header declares",
                entry.name
            )));
        }
        let mut crc = flate2::Crc::new();
        crc.update(&out);
        if crc.sum() != entry.crc {
            return Err(ZipError::Damaged(format!(
                "{} does not match its checksum",
                entry.name
            )));
        }
        Ok(out)
    }

    /// The compressed bytes of `entry`, after its local header.
    fn raw_data(&self, entry: &Entry) -> Result<&'a [u8], ZipError> {
        let data = self.data;
        let at = usize::try_from(entry.local_header).unwrap_or(usize::MAX);
        let outside = || ZipError::Damaged(format!("{} lies outside the file", entry.name));
        if u32_at(data, at) != Some(LOCAL_SIGNATURE) {
            return Err(outside());
        }
        let name = usize::from(u16_at(data, at + 26).ok_or_else(outside)?);
        let extra = usize::from(u16_at(data, at + 28).ok_or_else(outside)?);
        let start = at + LOCAL_LENGTH + name + extra;
        let stop = start
            .checked_add(usize::try_from(entry.compressed).unwrap_or(usize::MAX))
            .ok_or_else(outside)?;
        data.get(start..stop).ok_or_else(outside)
    }
}

fn unsupported_method(name: &str, method: u16) -> ZipError {
    ZipError::Unsupported(format!(
        "{name} is compressed with method {method}; only stored and deflated entries are read"
    ))
}

/// Where the end of central directory record starts: searched backwards over the longest
/// comment it may have.
fn find_end(data: &[u8]) -> Option<usize> {
    let last = data.len().checked_sub(END_LENGTH)?;
    let first = last.saturating_sub(usize::from(u16::MAX));
    (first..=last).rev().find(|&at| {
        u32_at(data, at) == Some(END_SIGNATURE)
            && u16_at(data, at + 20)
                .is_some_and(|comment| at + END_LENGTH + usize::from(comment) == data.len())
    })
}

/// The `count` entries of a central directory, each within the limits, their total too.
fn read_directory(directory: &[u8], count: usize, limits: Limits) -> Result<Vec<Entry>, ZipError> {
    let mut entries = Vec::with_capacity(count);
    let mut at = 0;
    let mut total: u64 = 0;
    for _ in 0..count {
        if u32_at(directory, at) != Some(DIRECTORY_SIGNATURE) {
            return Err(damaged("its central directory is cut short"));
        }
        let field16 = |offset: usize| u16_at(directory, at + offset).unwrap_or_default();
        let field32 = |offset: usize| u32_at(directory, at + offset).unwrap_or_default();
        let name_length = usize::from(field16(28));
        let skip = name_length + usize::from(field16(30)) + usize::from(field16(32));
        let name_bytes = directory
            .get(at + DIRECTORY_LENGTH..at + DIRECTORY_LENGTH + name_length)
            .ok_or_else(|| damaged("its central directory is cut short"))?;
        let entry = Entry {
            name: String::from_utf8_lossy(name_bytes).replace('\\', "/"),
            flags: field16(8),
            method: field16(10),
            crc: field32(16),
            compressed: u64::from(field32(20)),
            size: u64::from(field32(24)),
            local_header: u64::from(field32(42)),
        };
        if entry.size > limits.entry_bytes {
            return Err(ZipError::EntryTooLarge {
                name: entry.name,
                bytes: entry.size,
                most: limits.entry_bytes,
            });
        }
        total += entry.size;
        if total > limits.total_bytes {
            return Err(ZipError::TooLarge {
                bytes: total,
                most: limits.total_bytes,
            });
        }
        entries.push(entry);
        at += DIRECTORY_LENGTH + skip;
    }
    Ok(entries)
}

/// A small ZIP writer for the tests: each entry stored or deflated, its size declared as given
/// (a bomb declares less than it holds).
#[cfg(test)]
pub(crate) mod write {
    use std::io::Write;

    /// One entry to write: its name, its bytes, deflated or not, and the size to declare
    /// (`None`: its true size).
    pub struct File<'a> {
        pub name: &'a str,
        pub data: &'a [u8],
        pub deflate: bool,
        pub declared: Option<u32>,
    }

    impl<'a> File<'a> {
        pub fn deflated(name: &'a str, data: &'a [u8]) -> Self {
            File {
                name,
                data,
                deflate: true,
                declared: None,
            }
        }
    }

    /// The archive of `files`.
    pub fn zip(files: &[File<'_>]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut directory = Vec::new();
        for file in files {
            let mut crc = flate2::Crc::new();
            crc.update(file.data);
            let body = if file.deflate {
                let mut encoder =
                    flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
                encoder.write_all(file.data).expect("in memory");
                encoder.finish().expect("in memory")
            } else {
                file.data.to_vec()
            };
            let size = file.declared.unwrap_or(file.data.len() as u32);
            let method: u16 = if file.deflate { 8 } else { 0 };
            let offset = out.len() as u32;
            let mut common = Vec::new();
            common.extend_from_slice(&20u16.to_le_bytes()); // version needed
            common.extend_from_slice(&0u16.to_le_bytes()); // flags
            common.extend_from_slice(&method.to_le_bytes());
            common.extend_from_slice(&[0; 4]); // time, date
            common.extend_from_slice(&crc.sum().to_le_bytes());
            common.extend_from_slice(&(body.len() as u32).to_le_bytes());
            common.extend_from_slice(&size.to_le_bytes());
            common.extend_from_slice(&(file.name.len() as u16).to_le_bytes());
            common.extend_from_slice(&0u16.to_le_bytes()); // extra
            out.extend_from_slice(b"PK\x03\x04");
            out.extend_from_slice(&common);
            out.extend_from_slice(file.name.as_bytes());
            out.extend_from_slice(&body);
            directory.extend_from_slice(b"PK\x01\x02");
            directory.extend_from_slice(&20u16.to_le_bytes()); // version made by
            directory.extend_from_slice(&common);
            directory.extend_from_slice(&[0; 6]); // comment, disk, internal attributes
            directory.extend_from_slice(&[0; 4]); // external attributes
            directory.extend_from_slice(&offset.to_le_bytes());
            directory.extend_from_slice(file.name.as_bytes());
        }
        let offset = out.len() as u32;
        out.extend_from_slice(&directory);
        out.extend_from_slice(b"PK\x05\x06");
        out.extend_from_slice(&[0; 4]); // disks
        out.extend_from_slice(&(files.len() as u16).to_le_bytes());
        out.extend_from_slice(&(files.len() as u16).to_le_bytes());
        out.extend_from_slice(&(directory.len() as u32).to_le_bytes());
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes()); // comment
        out
    }
}

#[cfg(test)]
mod tests {
    use super::write::{zip, File};
    use super::*;

    const LIMITS: Limits = Limits {
        entries: 100,
        entry_bytes: 5 * 1024 * 1024,
        total_bytes: 20 * 1024 * 1024,
    };

    #[test]
    fn stored_and_deflated_entries_are_read_back() {
        let text = "Name\nRust\nSQL\n".repeat(50);
        let data = zip(&[
            File::deflated("export/Skills.csv", text.as_bytes()),
            File {
                name: "export/",
                data: b"",
                deflate: false,
                declared: None,
            },
            File {
                name: "Profile.csv",
                data: b"First Name\nAda\n",
                deflate: false,
                declared: None,
            },
        ]);
        assert!(looks_like_zip(&data));
        let mut archive = Archive::open(&data, LIMITS).expect("a ZIP");
        assert_eq!(archive.entries.len(), 3);
        assert_eq!(archive.entries[0].file_name(), "Skills.csv");
        assert!(archive.entries[1].is_folder());
        assert_eq!(archive.read(0).expect("inflates"), text.as_bytes());
        assert_eq!(archive.read(2).expect("stored"), b"First Name\nAda\n");
    }

    #[test]
    fn too_many_entries_or_too_large_ones_are_refused_by_their_headers() {
        let names: Vec<String> = (0..101).map(|i| format!("{i}.csv")).collect();
        let files: Vec<File> = names.iter().map(|n| File::deflated(n, b"x")).collect();
        let error = Archive::open(&zip(&files), LIMITS).err().expect("refused");
        assert_eq!(
            error,
            ZipError::TooManyEntries {
                count: 101,
                most: 100
            }
        );
        assert!(error.to_string().contains("101 entries"), "{error}");

        let big = vec![b'a'; 6 * 1024 * 1024];
        let error = Archive::open(&zip(&[File::deflated("Big.csv", &big)]), LIMITS)
            .err()
            .expect("refused");
        assert_eq!(
            error.to_string(),
            "is a ZIP whose entry Big.csv would inflate to 6 MB; at most 5 MB an entry are read"
        );

        let four = vec![b'a'; 4 * 1024 * 1024];
        let files: Vec<File> = ["a", "b", "c", "d", "e", "f"]
            .iter()
            .map(|n| File::deflated(n, &four))
            .collect();
        let error = Archive::open(&zip(&files), LIMITS).err().expect("refused");
        assert!(matches!(error, ZipError::TooLarge { .. }), "{error}");
    }

    #[test]
    fn an_entry_inflating_past_its_declared_size_is_a_bomb() {
        let zeros = vec![0u8; 30 * 1024 * 1024];
        let data = zip(&[File {
            name: "Profile.csv",
            data: &zeros,
            deflate: true,
            declared: Some(1000),
        }]);
        assert!(data.len() < 100 * 1024, "a small file: {}", data.len());
        let mut archive = Archive::open(&data, LIMITS).expect("the header looks harmless");
        let error = archive.read(0).expect_err("refused while inflating");
        assert_eq!(
            error,
            ZipError::Bomb {
                name: "Profile.csv".into(),
                declared: 1000
            }
        );
    }

    #[test]
    fn damaged_archives_are_refused_with_a_reason() {
        let data = zip(&[File {
            name: "Skills.csv",
            data: b"Name\nRust\n",
            deflate: false,
            declared: None,
        }]);
        for cut in [data.len() - 1, 40, 3] {
            let error = Archive::open(&data[..cut], LIMITS)
                .err()
                .expect("cut short");
            assert!(matches!(error, ZipError::Damaged(_)), "{cut}: {error}");
        }
        let mut flipped = data.clone();
        flipped[42] ^= 0x20; // "Name" becomes "NAme": the checksum no longer matches
        let mut archive = Archive::open(&flipped, LIMITS).expect("the directory is intact");
        assert!(matches!(archive.read(0), Err(ZipError::Damaged(_))));
        assert!(Archive::open(b"not a zip at all, just some text", LIMITS).is_err());
    }
}
