//! An S3-compatible bucket target (AWS S3, Cloudflare R2, Backblaze B2,
//! MinIO), through `object_store`. Each file gets its content type and a
//! cache header fit for it. A put replaces an object at once; files new to
//! the bucket are sent first, then the files that link to them, and
//! removals come last, so a reader never follows a link to a file not there
//! yet. Files are sent a few at a time, in those waves.

use std::collections::BTreeMap;
use std::time::Duration;

use futures_util::{StreamExt, TryStreamExt};
use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::path::Path as StorePath;
use object_store::{
    Attribute, Attributes, ClientOptions, ObjectStore, ObjectStoreExt, PutOptions, PutPayload, RetryConfig,
};

use super::error::{Fault, PublishError};
use super::plan::Listing;
use super::progress::Progress;
use super::record::{RECORD, Sent};
use super::remote::{Confirm, Remote, Removed, Upload};
use crate::config::{PublishTarget, TargetKind};
use crate::preview::content_type;

/// Files in flight at once.
const AT_ONCE: usize = 8;

pub struct Bucket {
    store: AmazonS3,
    name: String,
    prefix: String,
    runtime: tokio::runtime::Runtime,
}

impl Bucket {
    pub fn open(target: &PublishTarget, secret: Option<&str>) -> Result<Self, PublishError> {
        let TargetKind::Bucket { bucket, endpoint, region, prefix, access_key } = &target.kind else {
            unreachable!("a bucket target")
        };
        let Some(secret) = secret else {
            return Err(PublishError::new(
                Fault::Secret,
                format!("no secret access key is known for the bucket `{bucket}`"),
                format!("enter the secret of the access key `{access_key}`"),
            ));
        };
        // TLS through rustls with ring, installed once for the process.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let options = ClientOptions::new()
            .with_connect_timeout(Duration::from_secs(15))
            .with_timeout(Duration::from_secs(120))
            .with_allow_http(endpoint.as_deref().is_some_and(|e| e.starts_with("http://")));
        let retry = RetryConfig { max_retries: 3, retry_timeout: Duration::from_secs(30), ..RetryConfig::default() };
        let mut builder = AmazonS3Builder::new()
            .with_bucket_name(bucket)
            .with_region(region)
            .with_access_key_id(access_key)
            .with_secret_access_key(secret)
            .with_client_options(options)
            .with_retry(retry);
        if let Some(endpoint) = endpoint {
            builder = builder.with_endpoint(endpoint);
        }
        let store = builder.build().map_err(|e| {
            PublishError::new(Fault::Settings, format!("the bucket target is not usable: {e}"), "check its settings")
        })?;
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| {
            PublishError::new(Fault::Failed, format!("cannot start the network runtime: {e}"), "try again")
        })?;
        Ok(Bucket { store, name: bucket.clone(), prefix: prefix.clone(), runtime })
    }

    /// The object key of a site path, as written: `tags/분산-학습/index.html`
    /// (a browser asks for it percent-encoded, and S3 decodes it).
    fn key(&self, path: &str) -> Result<StorePath, PublishError> {
        let key = if self.prefix.is_empty() { path.to_string() } else { format!("{}/{path}", self.prefix) };
        StorePath::parse(&key).map_err(|e| {
            PublishError::new(Fault::Export, format!("`{path}` cannot be a key in a bucket: {e}"), "rename the file")
        })
    }

    fn fault(&self, doing: &str, path: &str, error: &object_store::Error) -> PublishError {
        bucket_error(&self.name, doing, path, error)
    }
}

/// A bucket's error in the author's words.
fn bucket_error(bucket: &str, doing: &str, path: &str, error: &object_store::Error) -> PublishError {
    let text = error_chain(error);
    let has = |words: &[&str]| words.iter().any(|w| text.contains(w));
    let (fault, hint) = if has(&["SignatureDoesNotMatch", "InvalidAccessKeyId", "InvalidClientTokenId", "401"]) {
        (Fault::Secret, "check the access key ID and enter its secret again")
    } else if has(&["AccessDenied", "403", "Forbidden"]) {
        (Fault::Denied, "give the access key permission to list, write and delete in this bucket (and its prefix)")
    } else if has(&["NoSuchBucket"]) {
        (Fault::Settings, "check the bucket's name and region (and the endpoint, for R2, B2 or MinIO)")
    } else if has(&["QuotaExceeded", "EntityTooLarge", "InsufficientStorage", "507"]) {
        (Fault::Full, "the bucket's storage is full: free space or raise its quota, then publish again")
    } else if has(&["onnection refused", "dns error", "failed to lookup", "connect"]) {
        (Fault::Unreachable, "check the endpoint and your network connection, then publish again")
    } else if has(&["timed out", "connection closed", "reset", "broken pipe", "error sending request"]) {
        (Fault::Dropped, "the connection dropped: publish again; what was sent is kept, and the rest is sent")
    } else {
        (Fault::Failed, "publish again; if it happens again, check the bucket's settings")
    };
    let place = if path.is_empty() { String::new() } else { format!(" `{path}`") };
    PublishError::new(fault, format!("cannot {doing}{place} in the bucket `{bucket}`: {}", first_line(&text)), hint)
}

/// The error and its causes, in one text.
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

fn first_line(text: &str) -> &str {
    let line = text.lines().next().unwrap_or(text);
    match line.char_indices().nth(400) {
        Some((at, _)) => &line[..at],
        None => line,
    }
}

/// How long browsers and caches may keep a file: pages and feeds are asked
/// for again each time (their ETag makes that cheap), so a new post shows at
/// once; stylesheets and scripts an hour; images, fonts and media a day.
fn cache_control(path: &str) -> &'static str {
    let kind = content_type(path);
    if kind.starts_with("text/html") || kind.starts_with("application/xml") || path == "search/index.js" {
        "public, max-age=0, must-revalidate"
    } else if kind.starts_with("text/") || kind.starts_with("application/json") {
        "public, max-age=3600"
    } else {
        "public, max-age=86400"
    }
}

fn put_options(path: &str) -> PutOptions {
    let mut attributes = Attributes::new();
    attributes.insert(Attribute::ContentType, content_type(path).into());
    attributes.insert(Attribute::CacheControl, cache_control(path).into());
    PutOptions { attributes, ..PutOptions::default() }
}

/// An ETag as a stamp, the same whether a put or a listing gave it.
fn stamp(e_tag: Option<String>) -> String {
    e_tag.unwrap_or_default().trim_matches('"').to_string()
}

impl Remote for Bucket {
    fn record(&mut self) -> Result<Option<Vec<u8>>, PublishError> {
        let record_key = self.key(RECORD)?;
        let record = self.runtime.block_on(async {
            match self.store.get(&record_key).await {
                Ok(got) => got.bytes().await.map(|b| Some(b.to_vec())),
                Err(object_store::Error::NotFound { .. }) => Ok(None),
                Err(error) => Err(error),
            }
        });
        record.map_err(|e| self.fault("read", RECORD, &e))
    }

    fn listing(&mut self, _known: &BTreeMap<String, Sent>) -> Result<Listing, PublishError> {
        let prefix = (!self.prefix.is_empty()).then(|| StorePath::parse(&self.prefix)).transpose().map_err(|e| {
            PublishError::new(
                Fault::Settings,
                format!("the prefix `{}` is not a folder: {e}", self.prefix),
                "check `prefix`",
            )
        })?;
        let listed: Vec<object_store::ObjectMeta> = self
            .runtime
            .block_on(self.store.list(prefix.as_ref()).try_collect())
            .map_err(|e| self.fault("list the files", "", &e))?;
        let strip = if self.prefix.is_empty() { String::new() } else { format!("{}/", self.prefix) };
        let files: BTreeMap<String, String> = listed
            .into_iter()
            .filter_map(|meta| {
                let path = meta.location.as_ref().strip_prefix(&strip)?.to_string();
                Some((path, stamp(meta.e_tag)))
            })
            .collect();
        Ok(Listing { files: Some(files), stamps_are_hashes: false })
    }

    fn confirms_each_file(&self) -> bool {
        true
    }

    fn send(&mut self, files: &[Upload], confirm: Confirm) -> Result<(), PublishError> {
        let this = &*self;
        // Wave by wave (see `plan`): each one whole before the next starts.
        for wave in files.chunk_by(|a, b| a.wave == b.wave) {
            let mut stopped = false;
            let result: Result<(), PublishError> = this.runtime.block_on(async {
                let mut sending = futures_util::stream::iter(wave)
                    .map(|upload| async move {
                        let bytes = upload.bytes()?;
                        let key = this.key(&upload.path)?;
                        let put = this
                            .store
                            .put_opts(&key, PutPayload::from(bytes), put_options(&upload.path))
                            .await
                            .map_err(|e| this.fault("send", &upload.path, &e))?;
                        Ok::<_, PublishError>((upload, stamp(put.e_tag)))
                    })
                    .buffer_unordered(AT_ONCE);
                while let Some(sent) = sending.next().await {
                    let (upload, stamp) = sent?;
                    if !confirm(upload, stamp) {
                        stopped = true;
                        break;
                    }
                }
                Ok(())
            });
            result?;
            if stopped {
                break;
            }
        }
        Ok(())
    }

    fn remove(&mut self, paths: &[String], removed: Removed) -> Result<(), PublishError> {
        for path in paths {
            match self.runtime.block_on(self.store.delete(&self.key(path)?)) {
                Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
                Err(error) => return Err(self.fault("remove", path, &error)),
            }
            if !removed(path) {
                break;
            }
        }
        Ok(())
    }

    fn finish(&mut self, record: &[u8], _message: &str, _progress: &dyn Fn(Progress)) -> Result<(), PublishError> {
        let mut attributes = Attributes::new();
        attributes.insert(Attribute::ContentType, "application/json".into());
        attributes.insert(Attribute::CacheControl, "no-store".into());
        let options = PutOptions { attributes, ..PutOptions::default() };
        let payload = PutPayload::from(record.to_vec());
        self.runtime
            .block_on(self.store.put_opts(&self.key(RECORD)?, payload, options))
            .map(|_| ())
            .map_err(|e| self.fault("write the record", RECORD, &e))
    }
}
