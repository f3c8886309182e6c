//! The app's stores, made once on the real API (`api.ts`, the one module that
//! talks to Tauri) and the one editor. Components import the stores they need
//! from here; tests make their own with `makeStores` on a fake API.

import * as api from "./api";
import { Buffers } from "./editor/buffers";
import { makeStores } from "./stores";

/** The one editor view and every open post's text. Its hooks run only once the stores below exist. */
export const editor = new Buffers({
  changed: (path, text) => posts.edited(path, text),
  scrolled: (line) => preview.scrolled(line),
  cursor: (line) => preview.cursorMoved(line),
  image: (path, file) => void posts.imageDropped(path, file),
}, api);

export const { notices, panels, layout, newBlog, importBlog, session, posts, preview, form, sidebar, problems, siteExport, history, sitePublish } =
  makeStores(api, editor);
