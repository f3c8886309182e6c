// The one module that talks to Tauri. Components call these typed wrappers;
// nothing else imports `@tauri-apps/*`. Every command rejects with an `AppError`.

import { Channel, convertFileSrc, invoke } from "@tauri-apps/api/core";
import { getCurrentWindow } from "@tauri-apps/api/window";
import type {
  BlogView,
  ExportProgress,
  ExportSummary,
  FieldKey,
  FieldValue,
  Imported,
  Loading,
  Misspelled,
  PostText,
  Preview,
  PublishDone,
  PublishInfo,
  PublishProgress,
  Recovered,
  RetagDone,
  RetagPlan,
  Saved,
  Settings,
  StartInfo,
  TargetForm,
  VersionItem,
  WatchUpdate,
} from "./types";

/** The blog given on the command line, else the last one opened (else none); `onLoading` hears how far reading it has come. */
export function start(onLoading: (loading: Loading) => void) {
  const progress = new Channel<Loading>();
  progress.onmessage = onLoading;
  return invoke<StartInfo>("start", { progress });
}

/** Opens a blog folder; without `path`, asks with a folder dialog (null if cancelled). `onLoading` hears how far reading it has come. */
export function openBlog(path: string | undefined, onLoading: (loading: Loading) => void) {
  const progress = new Channel<Loading>();
  progress.onmessage = onLoading;
  return invoke<BlogView | null>("open_blog", { path: path ?? null, progress });
}

/** The folder a new blog titled `title` goes to: a new one in `parent`, else in the user's documents. */
export const newBlogFolder = (title: string, parent: string | null) =>
  invoke<string>("new_blog_folder", { title, parent });

/** Asks for a folder with the system's dialog; null if cancelled. */
export const chooseFolder = () => invoke<string | null>("choose_folder");

/** Asks for a hosted blog's export (an .xml or .zip file) with the system's dialog; null if cancelled. */
export const chooseExport = () => invoke<string | null>("choose_export");

/** The new folder an import of `source` goes to (the core's rule): in `parent`, else in the user's documents. */
export const importFolder = (source: string, parent: string | null) =>
  invoke<string>("import_folder", { source, parent });

/**
 * Imports `source` (an export file, or `velog:@you`) into `folder` (new or empty) and opens the new
 * blog; `onStep` hears how a Velog import is going, `onLoading` how far opening the blog has come.
 */
export function importBlog(
  fields: { source: string; folder: string },
  onStep: (step: string) => void,
  onLoading: (loading: Loading) => void,
) {
  const steps = new Channel<string>();
  steps.onmessage = onStep;
  const progress = new Channel<Loading>();
  progress.onmessage = onLoading;
  return invoke<Imported>("import_blog", { ...fields, steps, progress });
}

/** Makes a blog (hanji.toml, an About page, a first post) in `folder` and opens it. */
export function newBlog(
  blog: { title: string; locale: string; author: string; folder: string },
  onLoading: (loading: Loading) => void,
) {
  const progress = new Channel<Loading>();
  progress.onmessage = onLoading;
  return invoke<BlogView>("new_blog", { ...blog, progress });
}

/** Opens a copy of the sample blog, made in a new folder of the user's documents. */
export function trySample(onLoading: (loading: Loading) => void) {
  const progress = new Channel<Loading>();
  progress.onmessage = onLoading;
  return invoke<BlogView>("try_sample", { progress });
}

/** Calls `onUpdate` for every change on disk until the blog is closed or another is opened. */
export function watch(onUpdate: (update: WatchUpdate) => void): Promise<void> {
  const channel = new Channel<WatchUpdate>();
  channel.onmessage = onUpdate;
  return invoke("watch", { channel });
}

export const readPost = (path: string) => invoke<PostText>("read_post", { path });

/**
 * Saves atomically. Rejects with `conflict` (and `theirs`) if the file changed since `version`.
 * An `auto` save (the app's own, after a pause in typing) keeps a version in the history only now and then.
 */
export const savePost = (path: string, text: string, version: string, auto = false) =>
  invoke<Saved>("save_post", { path, text, version, auto });

/** Saves whatever is on disk now being overwritten knowingly ("keep mine"). */
export const overwritePost = (path: string, text: string) => invoke<Saved>("save_post", { path, text, version: null });

/** Renders the post from its unsaved text; site pages in the preview show it too. */
export const preview = (path: string, text: string) => invoke<Preview>("preview", { path, text });

/** The words of the whole post `text` that the dictionaries of `lang` do not know. */
export const misspelled = (text: string, lang: string) => invoke<Misspelled[]>("misspelled", { text, lang });

/** What the author may have meant by `word`, in a post in `lang`. */
export const spellingSuggestions = (word: string, lang: string) =>
  invoke<string[]>("spelling_suggestions", { word, lang });

/** The saved versions of a post (the texts its saves replaced), newest first. */
export const versions = (path: string) => invoke<VersionItem[]>("versions", { path });

/** The text of one saved version of a post. */
export const readVersion = (path: string, id: string) => invoke<string>("read_version", { path, id });

/** Drops the unsaved text of a post from the preview (after a save or a revert). */
export const forgetUnsaved = (path: string) => invoke<void>("forget_unsaved", { path });

/** `text` with one front matter field changed, every other byte kept. */
export const setField = (text: string, key: FieldKey, value: FieldValue) =>
  invoke<string>("set_field", { text, key, value });

export const newPost = (title: string) => invoke<PostText>("new_post", { title });

/** Changes a post's slug and file name; returns it at its new path. */
export const renamePost = (path: string, slug: string) => invoke<PostText>("rename_post", { path, slug });

/** Moves the post (its folder, for a bundle) to the trash; says where. */
export const deletePost = (path: string) => invoke<string>("delete_post", { path });

/** Asks for an image, copies it beside a bundle post or into the images folder the blog publishes; the Markdown to insert, or null. */
export const insertImage = (post: string) => invoke<string | null>("insert_image", { post });

/** A pasted or dropped image: writes its bytes like `insertImage`; the Markdown to insert. */
export const saveImage = (post: string, name: string, bytes: Uint8Array) =>
  invoke<string>("save_image", { post, name, bytes: Array.from(bytes) });

/** The core's slugs of tag names, in the same order (the UI makes none of its own). */
export const tagSlugs = (names: string[]) => invoke<string[]>("tag_slugs", { names });

export const planRetag = (from: string, to: string) => invoke<RetagPlan>("plan_retag", { from, to });
export const retag = (from: string, to: string) => invoke<RetagDone>("retag", { from, to });
export const undoRetag = (batch: number) => invoke<string[]>("undo_retag", { batch });

/** Exports the blog; without `out`, asks with a folder dialog (null if cancelled). */
export function exportBlog(out: string | null, onProgress: (p: ExportProgress) => void) {
  const progress = new Channel<ExportProgress>();
  progress.onmessage = onProgress;
  return invoke<ExportSummary | null>("export_blog", { out, progress });
}

/** Shows a folder (an export) in the system's file manager. */
export const showFolder = (path: string) => invoke<void>("show_folder", { path });

/** The blog's publish targets, the keychain in use, and its git repository's state. */
export const publishTargets = () => invoke<PublishInfo>("publish_targets");

/** Writes a target into hanji.toml; a secret given goes to the keychain, never the blog. */
export const saveTarget = (form: TargetForm, secret: string | null) => invoke<PublishInfo>("save_target", { form, secret });

/** Connects and signs in to the target of the form, sending nothing: what it found. */
export const testTarget = (form: TargetForm, secret: string | null) => invoke<string>("test_target", { form, secret });

/** Adds the SSH server of the target to the known hosts: its key's fingerprint. */
export const trustHost = (form: TargetForm) => invoke<string>("trust_host", { form });

/** Exports the blog and sends it to the target `name`. */
export function publishBlog(name: string, secret: string | null, onProgress: (p: PublishProgress) => void) {
  const progress = new Channel<PublishProgress>();
  progress.onmessage = onProgress;
  return invoke<PublishDone>("publish_blog", { name, secret, progress });
}

/** Stops the publish running, between two files. */
export const cancelPublish = () => invoke<void>("cancel_publish");

/** Opens a published site in the system's browser. */
export const openSite = (url: string) => invoke<void>("open_site", { url });

/** Commits the blog's changes (git). */
export const commitSources = (message: string) => invoke<PublishInfo>("commit_sources", { message });

/** Pulls (git): the files it writes come back through the watcher. */
export const pullSources = () => invoke<string>("pull_sources");

export const pushSources = () => invoke<string>("push_sources");

/** Paths of posts whose text contains `query` (case-insensitive). */
export const searchText = (query: string) => invoke<string[]>("search_text", { query });

/** Unsaved text kept from before the app last closed (a crash), for the open blog. */
export const recovered = () => invoke<Recovered[]>("recovered");

/** Throws away the kept text of `path`. */
export const discardRecovered = (path: string) => invoke<void>("discard_recovered", { path });

export const saveSettings = (settings: Settings) => invoke<void>("save_settings", { settings });

/** The address of a site page in the preview protocol, e.g. `index.html`, `tags/index.html`. */
export const previewUrl = (sitePath: string) => convertFileSrc(sitePath, "preview");

/** Runs `beforeClose` when the window is asked to close; the window closes when it resolves. */
export function onCloseRequested(beforeClose: () => Promise<void>) {
  return getCurrentWindow().onCloseRequested(async () => {
    await beforeClose();
  });
}
