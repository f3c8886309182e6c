//! The `hanji` command: reads the arguments, calls the core, prints the result.

use std::io::{self, IsTerminal, Write};
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};

use hanji::Diagnostic;
use hanji::ExportError;
use hanji::Tag;
use indicatif::{ProgressBar, ProgressStyle};

#[derive(Parser)]
#[command(name = "hanji", version, about = "Write a blog as a folder of Markdown files")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List every tag with its count, most used first
    Tags {
        /// The blog folder
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// Count drafts too, and mark them
        #[arg(long)]
        drafts: bool,
        /// Count scheduled posts as published now
        #[arg(long)]
        future: bool,
    },
    /// List every problem in the blog, and what the next export publishes; exit 1 if there is an error
    Check {
        /// The blog folder
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// Count scheduled posts as published now
        #[arg(long)]
        future: bool,
    },
    /// Write the blog as a static site, ready for any static host
    Export {
        /// The blog folder
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// Where to write the site [default: the blog's `output_dir`: `public`, or
        /// `hanji-public` in a blog made with another tool]
        #[arg(long, short)]
        out: Option<PathBuf>,
        /// Write into a folder that has files Hanji did not put there (none is deleted)
        #[arg(long)]
        force: bool,
        /// Fail on warnings too (links that lead nowhere, missing images)
        #[arg(long)]
        strict: bool,
        /// No progress bar
        #[arg(long, short)]
        quiet: bool,
        /// Publish scheduled posts now, before their date
        #[arg(long)]
        future: bool,
    },
    /// Export the site and send it to a publish target ([publish.NAME] in hanji.toml):
    /// only the files whose bytes changed since the last publish
    Publish {
        /// The blog folder
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// The target's NAME [default: the blog's only target]
        #[arg(long, short)]
        target: Option<String>,
        /// List what would be sent and removed; send nothing
        #[arg(long)]
        dry_run: bool,
        /// Name each file as it is sent or removed
        #[arg(long, short)]
        verbose: bool,
        /// Trust the SSH server's host key (first check its fingerprint), then publish
        #[arg(long)]
        trust_host: bool,
        /// Trust the SSH server's new key, whose fingerprint (SHA256:…) you
        /// checked with its owner, in place of the one known for it
        #[arg(long, value_name = "FINGERPRINT")]
        trust_changed_host: Option<String>,
        /// No progress bar
        #[arg(long, short)]
        quiet: bool,
    },
    /// Make a new blog from a hosted blog's export (a WordPress WXR file, a Medium export ZIP, a Tistory backup) or a Velog account
    Import {
        /// The export: WordPress's .xml (Tools → Export), Medium's .zip, Tistory's backup .xml or .zip;
        /// or `velog:@user` (also https://velog.io/@user), read from Velog's API
        source: PathBuf,
        /// The new blog's folder: new, empty, or an earlier import of the same
        /// site (then only posts you have not edited since are updated)
        /// [default: a new folder named after the blog]
        #[arg(long)]
        into: Option<PathBuf>,
        /// A copy of the old WordPress site's wp-content/uploads, where images
        /// are copied from into each post's folder
        #[arg(long)]
        uploads: Option<PathBuf>,
        /// Leave the images a WordPress or Medium export links to but does not
        /// hold on the old site, instead of downloading them
        #[arg(long)]
        offline: bool,
    },
    /// Preview the site in a browser; pages reload when the files change
    Serve {
        /// The blog folder
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// The address to listen on (0.0.0.0 lets other devices on the network in)
        #[arg(long, default_value = "127.0.0.1")]
        bind: IpAddr,
        /// The port to try first; the next free one is taken if it is in use (0: any)
        #[arg(long, short, default_value_t = 4000)]
        port: u16,
        /// Show drafts, marked
        #[arg(long)]
        drafts: bool,
        /// Show scheduled posts as published
        #[arg(long)]
        future: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Tags { dir, drafts, future } => {
            let blog = load(&dir, future)?;
            let mut out = io::stdout().lock();
            for tag in blog.library.tags(drafts) {
                writeln!(out, "{}", tag_line(&tag, drafts))?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Check { dir, future } => {
            let blog = load(&dir, future)?;
            let problems = hanji::check(&blog);
            // Buffered: a blog's thousands of problems in a few writes.
            let mut out = io::BufWriter::new(io::stdout().lock());
            for problem in &problems {
                write_problem(&mut out, &dir, problem)?;
            }
            out.flush()?;
            let errors = problems.iter().filter(|p| p.is_error()).count();
            let warnings = problems.len() - errors;
            if let Some(layout) = blog.layout().describe(&blog.config.posts_dir) {
                eprintln!("{layout}");
            }
            // Posts held back are no problem, but each is named, with when
            // a scheduled one is published.
            let next = hanji::next_export(&blog);
            for held in &next.held {
                eprintln!("{}: {}", shown_path(&dir, &held.path).display(), held.describe());
            }
            eprintln!("{}", next.line());
            let pages = blog.library.pages().count();
            let posts = blog.library.len() - pages;
            let pages = if pages > 0 { format!("{pages} {}, ", plural(pages, "page", "pages")) } else { String::new() };
            eprintln!(
                "{posts} posts, {pages}{errors} {}, {warnings} {}",
                plural(errors, "error", "errors"),
                plural(warnings, "warning", "warnings"),
            );
            Ok(if errors > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
        }
        Command::Export { dir, out, force, strict, quiet, future } => {
            // The posts' texts are read again page by page, and what was read
            // from each file is kept between exports: see `hanji::load_with`.
            let options = hanji::LoadOptions {
                texts: hanji::LoadTexts::LetGo,
                cache_dir: hanji::cache_dir(),
                schedule: schedule(future)?,
                ..Default::default()
            };
            let blog = hanji::load_with(&dir, &options)
                .with_context(|| format!("cannot open the blog in `{}`", dir.display()))?;
            let out = out.unwrap_or_else(|| dir.join(&blog.config.output_dir));
            let code = export(&blog, &dir, &out, force, strict, quiet);
            // The process ends here: freeing every post one by one would only
            // add to the wait (tens of milliseconds for a large blog).
            std::mem::forget(blog);
            code
        }
        Command::Import { source, into, uploads, offline } => import(&source, into, uploads, offline),
        Command::Serve { dir, bind, port, drafts, future } => serve(&dir, bind, port, drafts, future),
        Command::Publish { dir, target, dry_run, verbose, trust_host, trust_changed_host, quiet } => {
            let blog = load(&dir, false)?;
            let flags = PublishFlags { dry_run, verbose, trust_host, trust_changed_host, quiet };
            publish(&blog, &dir, target.as_deref(), flags)
        }
    }
}

fn import(source: &Path, into: Option<PathBuf>, uploads: Option<PathBuf>, offline: bool) -> anyhow::Result<ExitCode> {
    let into = into.unwrap_or_else(|| hanji::import_folder(source, Path::new(".")));
    let progress = hanji::ImportProgress(std::sync::Arc::new(|text: &str| eprintln!("{text}")));
    let options =
        hanji::ImportOptions { into: into.clone(), uploads, progress: Some(progress), offline, ..Default::default() };
    match hanji::import(source, &options) {
        Ok(report) => {
            println!("{report}");
            eprintln!("the new blog is in {}; `hanji serve {}` shows it", into.display(), into.display());
            Ok(ExitCode::SUCCESS)
        }
        Err(error) => {
            eprintln!("error: {error}\n  hint: {}", error.hint());
            Ok(ExitCode::from(2))
        }
    }
}

fn serve(dir: &Path, bind: IpAddr, port: u16, drafts: bool, future: bool) -> anyhow::Result<ExitCode> {
    let watch = hanji::WatchOptions { schedule: schedule(future)?, ..Default::default() };
    let options = hanji::ServeOptions { bind, port, drafts, watch, cache_dir: hanji::cache_dir() };
    let shown = dir.to_path_buf();
    let server = hanji::Server::bind(dir, options, move |update| print_update(&shown, update))
        .with_context(|| format!("cannot serve the blog in `{}`", dir.display()))?;
    println!("Serving {} at {}", dir.display(), server.url());
    if let Some(warning) = server.warning() {
        eprintln!("{warning}");
    }
    eprintln!("Pages reload when files change. Press Ctrl-C to stop.");
    server.run(async {
        let _ = tokio::signal::ctrl_c().await;
    })?;
    eprintln!("stopped");
    Ok(ExitCode::SUCCESS)
}

/// One line on stderr for each change the preview follows.
fn print_update(dir: &Path, update: &hanji::Update) {
    use hanji::Update;
    match update {
        Update::Changed(set) => {
            let paths = set.added.iter().chain(&set.changed).chain(&set.removed).map(|c| &c.path);
            let mut files: Vec<String> = paths.map(|p| shown_path(dir, p).display().to_string()).collect();
            files.extend(set.renamed.iter().map(|r| format!("{} → {}", r.from.display(), r.to.display())));
            files.extend(set.assets.iter().map(|p| shown_path(dir, p).display().to_string()));
            if set.config {
                files.push("settings".into());
            }
            if set.templates {
                files.push("templates".into());
            }
            if set.shortcodes {
                files.push("shortcodes".into());
            }
            if !files.is_empty() {
                eprintln!("changed: {}", files.join(", "));
            }
            for problem in &set.diagnostics_added {
                let shown = Diagnostic { path: shown_path(dir, &problem.path), ..problem.clone() };
                eprintln!("{shown}");
            }
        }
        Update::Gone { message } | Update::Back { message } | Update::Notice { message } => eprintln!("{message}"),
    }
}

fn export(
    blog: &hanji::Blog,
    dir: &Path,
    out: &Path,
    force: bool,
    strict: bool,
    quiet: bool,
) -> anyhow::Result<ExitCode> {
    let bar = if quiet || !io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(0)
            .with_style(ProgressStyle::with_template("{bar:40} {pos}/{len} files").expect("a valid progress template"))
    };
    let progress = |done: usize, total: usize| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    };
    let options = hanji::ExportOptions { force, cache_dir: hanji::cache_dir(), process_ends: true };
    let summary = match hanji::export(blog, out, &options, &progress) {
        Ok(summary) => summary,
        Err(ExportError::Refused { message, hint }) => {
            bar.finish_and_clear();
            eprintln!("error: {message}\n  hint: {hint}");
            return Ok(ExitCode::from(2));
        }
        Err(error) => return Err(error.into()),
    };
    bar.finish_and_clear();
    let mut stdout = io::BufWriter::new(io::stdout().lock());
    for problem in &summary.problems {
        write_problem(&mut stdout, dir, problem)?;
    }
    stdout.flush()?;
    for post in &summary.left_out {
        eprintln!("left out: {} (it has errors)", shown_path(dir, post).display());
    }
    if let Some(images) = summary.images_line() {
        eprintln!("{images}");
    }
    eprintln!("{}", summary.line(out));
    let failed = summary.errors() > 0 || (strict && !summary.problems.is_empty());
    // The process ends: its problems are not freed one by one (see `process_ends`).
    std::mem::forget(summary);
    Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

struct PublishFlags {
    dry_run: bool,
    verbose: bool,
    trust_host: bool,
    trust_changed_host: Option<String>,
    quiet: bool,
}

fn publish(blog: &hanji::Blog, dir: &Path, name: Option<&str>, flags: PublishFlags) -> anyhow::Result<ExitCode> {
    let fail = |error: &hanji::PublishError| {
        eprintln!("error: {}\n  hint: {}", error.message, error.hint);
        Ok(ExitCode::from(2))
    };
    let target = match hanji::find_target(&blog.config.publish, name) {
        Ok(target) => target,
        Err(error) => return fail(&error),
    };
    let Some(cache_dir) = hanji::cache_dir() else {
        eprintln!("error: Hanji has no cache folder to export into\n  hint: set HANJI_CACHE_DIR (or HOME)");
        return Ok(ExitCode::from(2));
    };
    if flags.trust_host || flags.trust_changed_host.is_some() {
        if flags.dry_run {
            // A dry run writes nothing, the known hosts included.
            eprintln!("dry run: the server of `{}` is not trusted (nothing is written)", target.name);
        } else {
            match hanji::trust_host(target, flags.trust_changed_host.as_deref()) {
                Ok(fingerprint) => eprintln!("trusted the server of `{}`: {fingerprint}", target.name),
                Err(error) => return fail(&error),
            }
        }
    }
    let terminal = io::stdin().is_terminal() && io::stderr().is_terminal();
    let bar = if flags.quiet || !io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(0)
            .with_style(ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}").expect("a valid progress template"))
    };
    let progress = |step: hanji::PublishProgress| match step {
        hanji::PublishProgress::Exporting { done, total } => {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
            bar.set_message("files exported");
        }
        hanji::PublishProgress::Exported { problems, left_out } => {
            // The warnings first: those posts are published all the same.
            bar.suspend(|| {
                let mut out = io::BufWriter::new(io::stdout().lock());
                for problem in &problems {
                    let _ = write_problem(&mut out, dir, problem);
                }
                let _ = out.flush();
                for post in &left_out {
                    eprintln!("left out: {} (it has errors)", shown_path(dir, Path::new(post)).display());
                }
            });
        }
        hanji::PublishProgress::Connecting => {
            bar.set_position(0);
            bar.set_message(format!("connecting to {}", target.name));
        }
        hanji::PublishProgress::Sending { path, done, total, bytes, total_bytes } => {
            if flags.verbose && !path.is_empty() {
                bar.suspend(|| println!("sent {path}"));
            }
            bar.set_length(total as u64);
            bar.set_position(done as u64);
            bar.set_message(format!("files sent, {} of {}", hanji::bytes_text(bytes), hanji::bytes_text(total_bytes)));
        }
        hanji::PublishProgress::Removing { done, total } => {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
            bar.set_message("files removed");
        }
        hanji::PublishProgress::Finishing { bytes } => {
            bar.set_message(format!("finishing ({} pushed)", hanji::bytes_text(bytes)));
        }
    };
    let mut secret = hanji::keychain::secret(target);
    let mut asked = false;
    loop {
        let options = hanji::PublishOptions {
            secret: secret.clone(),
            dry_run: flags.dry_run,
            cache_dir: cache_dir.clone(),
            cancel: None,
        };
        match hanji::publish(blog, target, &options, &progress) {
            Ok(summary) => {
                bar.finish_and_clear();
                if flags.dry_run || flags.verbose {
                    let mut out = io::stdout().lock();
                    if flags.dry_run {
                        for path in &summary.sent {
                            writeln!(out, "send {path}")?;
                        }
                    }
                    for path in &summary.removed {
                        writeln!(out, "{} {path}", if flags.dry_run { "remove" } else { "removed" })?;
                    }
                }
                if asked && let Some(secret) = &secret {
                    // Asked for and accepted: kept for next time.
                    if let Err(error) = hanji::keychain::keep(target, secret) {
                        eprintln!("warning: the secret was not kept: {error}");
                    }
                }
                eprintln!("{}", summary.line());
                if let Some(url) = summary.url.as_ref().filter(|_| !flags.dry_run) {
                    eprintln!("the site: {url}");
                }
                return Ok(if summary.left_out.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE });
            }
            // A missing or wrong secret: asked for once, on a terminal.
            Err(error) if error.fault == hanji::Fault::Secret && terminal && !asked => {
                bar.finish_and_clear();
                eprintln!("{}", error.message);
                let what = hanji::secret_name(target).unwrap_or("the password");
                secret = Some(rpassword::prompt_password(format!("Enter {what} for `{}`: ", target.name))?);
                asked = true;
            }
            Err(error) => {
                bar.finish_and_clear();
                return fail(&error);
            }
        }
    }
}

fn load(dir: &Path, future: bool) -> anyhow::Result<hanji::Blog> {
    let options = hanji::LoadOptions { schedule: schedule(future)?, ..Default::default() };
    hanji::load_with(dir, &options).with_context(|| format!("cannot open the blog in `{}`", dir.display()))
}

/// When the blog is read: scheduled posts judged by the wall clock (or the
/// time `HANJI_NOW` gives), or published now with `--future`.
fn schedule(future: bool) -> anyhow::Result<hanji::Schedule> {
    let clock = hanji::Clock::from_env().map_err(anyhow::Error::msg)?;
    Ok(hanji::Schedule { clock, future })
}

/// `nccl (5)`, as the seed page's sidebar shows it; with drafts, `rust (2, 1 draft)`.
fn tag_line(tag: &Tag, drafts: bool) -> String {
    if drafts && tag.draft_count > 0 {
        let word = plural(tag.draft_count, "draft", "drafts");
        format!("{} ({}, {} {word})", tag.name, tag.count, tag.draft_count)
    } else {
        format!("{} ({})", tag.name, tag.count)
    }
}

/// `dir/posts/a.md:3:7: error: message`, then the hint on its own line.
fn write_problem(out: &mut impl Write, dir: &Path, problem: &Diagnostic) -> io::Result<()> {
    let shown = Diagnostic { path: shown_path(dir, &problem.path), ..problem.clone() };
    writeln!(out, "{shown}")?;
    if let Some(hint) = &problem.hint {
        writeln!(out, "  hint: {hint}")?;
    }
    Ok(())
}

fn shown_path(dir: &Path, path: &Path) -> PathBuf {
    if dir == Path::new(".") { path.to_path_buf() } else { dir.join(path) }
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}
