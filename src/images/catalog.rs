//! The images of one blog as its site asks about them: what each one is,
//! read once while its file stays the same, and the copies a page offers of
//! it, found in the cache or made and put there. An export prepares every
//! copy as its pages ask for an image (so only images posts show are
//! touched, each once, on every core); a preview makes a copy only when the
//! browser asks for it.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use super::make::{decode_facts, make_copies, make_copies_in_turn};
use super::{Copy, Facts, Plan, key, source_hash};
use crate::config::Images;
use crate::fs;

/// Larger image files are shown as they are: reading one would cost more
/// than any page is worth.
const MAX_IMAGE_BYTES: u64 = 64 << 20;

/// What Hanji found of an image file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Looked {
    /// Sized for the screen.
    Facts(Facts),
    /// Shown as it is, with nothing to say: an SVG, an AVIF, a file that
    /// is not there (its link is reported as broken elsewhere).
    AsItIs,
    /// Shown as it is, with a warning at each place a post shows it.
    Problem { message: String, hint: String },
}

/// Where a copy made for an export is.
#[derive(Debug, Clone)]
pub enum Made {
    /// In the cache folder.
    Cached(PathBuf),
    /// In memory: there is no cache folder, or it could not be written.
    Bytes(Arc<Vec<u8>>),
}

impl Made {
    pub fn bytes(&self) -> std::io::Result<Vec<u8>> {
        match self {
            Made::Cached(path) => fs::read(path),
            Made::Bytes(bytes) => Ok(bytes.to_vec()),
        }
    }
}

/// The copies of one image an export writes.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub facts: Facts,
    pub copies: Vec<(Copy, Made)>,
}

type Stamp = Option<fs::Stamp>;

/// An image's copies for an export, made by whichever page asks first (the
/// others wait; `make_copies_in_turn` says why it makes them on its own
/// thread), or why they could not be.
type Preparing = OnceLock<Result<Prepared, String>>;

/// The cache's folder of copies of images.
const IMAGES: &str = "images";

pub struct Catalog {
    root: PathBuf,
    settings: Images,
    /// `images/` in the cache folder; None keeps copies in memory.
    cache: Option<PathBuf>,
    /// Make every copy of an image as soon as a page asks for it (an export).
    prepare: bool,
    looked: Mutex<HashMap<PathBuf, (Stamp, Looked)>>,
    prepared: Mutex<BTreeMap<PathBuf, Arc<Preparing>>>,
    made: AtomicUsize,
    reused: AtomicUsize,
}

impl Catalog {
    /// The images of the blog in `root`, sized by `settings`, their copies
    /// kept in `cache_dir` (`images/` in it).
    pub fn new(root: &Path, settings: &Images, cache_dir: Option<&Path>) -> Self {
        Catalog {
            root: root.to_path_buf(),
            settings: settings.clone(),
            cache: cache_dir.map(|dir| dir.join(IMAGES)),
            prepare: false,
            looked: Mutex::default(),
            prepared: Mutex::default(),
            made: AtomicUsize::new(0),
            reused: AtomicUsize::new(0),
        }
    }

    /// The same, making every copy of an image when a page first asks for
    /// it: what an export needs.
    pub fn preparing(mut self) -> Self {
        self.prepare = true;
        self
    }

    pub fn settings(&self) -> &Images {
        &self.settings
    }

    /// The stamp of the image file `asset` (relative to the blog), None if
    /// it is not there: a page's picture of it is made from what it holds.
    pub fn stamp(&self, asset: &Path) -> Stamp {
        fs::stamp_of(&self.root.join(asset))
    }

    /// What the image file `asset` (relative to the blog) is; read again
    /// only when its size or modification time changed.
    pub fn look(&self, asset: &Path) -> Looked {
        let stamp = self.stamp(asset);
        if let Some((seen, looked)) = self.looked.lock().expect("image catalog").get(asset)
            && *seen == stamp
        {
            return looked.clone();
        }
        let looked = self.read(asset, stamp);
        self.looked.lock().expect("image catalog").insert(asset.to_path_buf(), (stamp, looked.clone()));
        looked
    }

    fn read(&self, asset: &Path, stamp: Stamp) -> Looked {
        let name = asset.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let Some(fs::Stamp { len: size, .. }) = stamp else { return Looked::AsItIs };
        if size > MAX_IMAGE_BYTES {
            return Looked::Problem {
                message: format!(
                    "image `{name}` is {:.1} MB; images over 64 MB are shown as they are",
                    size as f64 / 1e6
                ),
                hint: "save it smaller (a photo rarely needs more than 2,000 pixels across)".into(),
            };
        }
        let bytes = match fs::read_file(&self.root, asset) {
            Ok(bytes) => bytes,
            Err(error) => {
                return Looked::Problem {
                    message: format!("image `{name}` cannot be read: {error}"),
                    hint: "check the file's permissions".into(),
                };
            }
        };
        match decode_facts(&bytes) {
            Ok(None) => Looked::AsItIs,
            Ok(Some(facts)) => self.judge(&name, facts),
            Err(error) => Looked::Problem {
                message: format!("image `{name}` cannot be read as an image: {error}"),
                hint: "save it again from an image editor, or replace it; it is shown as it is".into(),
            },
        }
    }

    /// An image larger than `max_megapixels` (or Hanji's own ceiling) is
    /// shown as it is.
    fn judge(&self, name: &str, facts: Facts) -> Looked {
        let pixels = u64::from(facts.width) * u64::from(facts.height);
        let megapixels = self.settings.megapixels();
        if pixels > u64::from(megapixels) * 1_000_000 {
            let (limit, hint) = if megapixels < self.settings.max_megapixels {
                (
                    format!("the most Hanji decodes ({megapixels})"),
                    "save it smaller: an image this large is never resized",
                )
            } else {
                (
                    format!("`max_megapixels` ({megapixels})"),
                    "save it smaller, or raise `max_megapixels` in `[images]` of hanji.toml",
                )
            };
            return Looked::Problem {
                message: format!(
                    "image `{name}` is {}×{} ({:.0} million pixels), over {limit}; it is shown as it is, not resized",
                    facts.width,
                    facts.height,
                    pixels as f64 / 1e6,
                ),
                hint: hint.into(),
            };
        }
        Looked::Facts(facts)
    }

    /// What a page offers of the image `asset` (of `facts`), once its
    /// copies are there: in an export they are made now (once per image,
    /// whichever page asks first); an error says why they cannot be, and
    /// the page shows the image as it is.
    pub fn plan(&self, asset: &Path, facts: &Facts) -> Result<Option<Plan>, String> {
        let Some(plan) = Plan::of(facts, &self.settings) else { return Ok(None) };
        if !self.prepare {
            return Ok(Some(plan));
        }
        let once = self.prepared.lock().expect("image catalog").entry(asset.to_path_buf()).or_default().clone();
        let prepared = once.get_or_init(|| self.prepare_copies(asset, facts, &plan));
        prepared.as_ref().map(|_| Some(plan)).map_err(Clone::clone)
    }

    fn prepare_copies(&self, asset: &Path, facts: &Facts, plan: &Plan) -> Result<Prepared, String> {
        let bytes = fs::read_file(&self.root, asset).map_err(|e| e.to_string())?;
        let source = source_hash(&bytes);
        let copies = plan.copies();
        let mut found: Vec<Option<Made>> = copies.iter().map(|copy| self.cached(source, *copy)).collect();
        let missing: Vec<Copy> = copies.iter().zip(&found).filter(|(_, f)| f.is_none()).map(|(c, _)| *c).collect();
        self.reused.fetch_add(copies.len() - missing.len(), Ordering::Relaxed);
        if !missing.is_empty() {
            let mut made = make_copies_in_turn(&bytes, facts, &missing, &self.settings).into_iter();
            for (copy, slot) in copies.iter().zip(found.iter_mut()).filter(|(_, f)| f.is_none()) {
                let bytes = made.next().expect("one result per copy")?;
                *slot = Some(self.keep(source, *copy, bytes));
                self.made.fetch_add(1, Ordering::Relaxed);
            }
        }
        let copies = copies.into_iter().zip(found.into_iter().map(|f| f.expect("every copy found or made"))).collect();
        Ok(Prepared { facts: *facts, copies })
    }

    /// The copy in the cache, if it is there.
    fn cached(&self, source: u128, copy: Copy) -> Option<Made> {
        let file = self.cache.as_ref()?.join(key(source, copy, &self.settings));
        fs::exists(&file).then_some(Made::Cached(file))
    }

    /// Puts a copy made in the cache (in memory if it cannot be written).
    fn keep(&self, source: u128, copy: Copy, bytes: Vec<u8>) -> Made {
        if let Some(cache) = &self.cache
            && let Some(parent) = cache.parent()
        {
            let name = key(source, copy, &self.settings);
            // Through the cache folder's handle, as every write under it.
            let written = fs::SitePath::new(&format!("{IMAGES}/{name}"))
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))
                .and_then(|file| fs::Folder::open(parent, true)?.write_if_changed(&file, &bytes));
            if written.is_ok() {
                return Made::Cached(cache.join(name));
            }
        }
        Made::Bytes(Arc::new(bytes))
    }

    /// Every image prepared for an export, with its copies, by file.
    pub fn prepared(&self) -> Vec<(PathBuf, Prepared)> {
        let prepared = self.prepared.lock().expect("image catalog");
        prepared.iter().filter_map(|(asset, once)| Some((asset.clone(), once.get()?.as_ref().ok()?.clone()))).collect()
    }

    /// One copy of the image `asset`, as a preview's browser asks for it:
    /// from the cache, else made (and kept). None for a copy the image's
    /// plan does not offer.
    pub fn copy(&self, asset: &Path, copy: Copy) -> Option<Result<Vec<u8>, String>> {
        let Looked::Facts(facts) = self.look(asset) else { return None };
        if !Plan::of(&facts, &self.settings).is_some_and(|plan| plan.has(copy)) {
            return None;
        }
        let bytes = match fs::read_file(&self.root, asset) {
            Ok(bytes) => bytes,
            Err(error) => return Some(Err(error.to_string())),
        };
        let source = source_hash(&bytes);
        if let Some(cached) = self.cached(source, copy).and_then(|made| made.bytes().ok()) {
            self.reused.fetch_add(1, Ordering::Relaxed);
            return Some(Ok(cached));
        }
        let made = make_copies(&bytes, &facts, &[copy], &self.settings).pop()?;
        Some(made.inspect(|bytes| {
            self.made.fetch_add(1, Ordering::Relaxed);
            self.keep(source, copy, bytes.clone());
        }))
    }

    /// How many copies were made, and how many found in the cache.
    pub fn counts(&self) -> (usize, usize) {
        (self.made.load(Ordering::Relaxed), self.reused.load(Ordering::Relaxed))
    }
}
