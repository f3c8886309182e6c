//! How the stores are made and joined, on any API and any holder of post
//! texts: `app.ts` makes them once on the real ones, tests on fakes.

import { SiteExport, type ExportApi } from "./export.svelte";
import { FrontMatterForm, type FormApi } from "./form.svelte";
import { History, type HistoryApi } from "./history.svelte";
import { Journal, type JournalApi } from "./journal";
import { ImportForm, type ImportApi } from "./import-blog.svelte";
import { Layout } from "./layout.svelte";
import { NewBlogForm, type NewBlogApi } from "./new-blog.svelte";
import { Notices, Problems } from "./notices.svelte";
import { Panels } from "./panels.svelte";
import { OpenPosts, type PostTexts, type PostsApi } from "./posts.svelte";
import { PreviewPane, type PreviewApi } from "./preview.svelte";
import { SitePublish, type PublishApi } from "./publish.svelte";
import { Session, type SessionApi } from "./session.svelte";
import { Sidebar, type SidebarApi } from "./sidebar.svelte";

/** Everything the stores together need of `api.ts`. */
export type AppApi = SessionApi &
  PostsApi &
  JournalApi &
  PreviewApi &
  FormApi &
  SidebarApi &
  ExportApi &
  HistoryApi &
  PublishApi &
  NewBlogApi &
  ImportApi;

export interface Stores {
  notices: Notices;
  panels: Panels;
  layout: Layout;
  newBlog: NewBlogForm;
  importBlog: ImportForm;
  session: Session;
  posts: OpenPosts;
  journal: Journal;
  preview: PreviewPane;
  form: FrontMatterForm;
  sidebar: Sidebar;
  problems: Problems;
  siteExport: SiteExport;
  history: History;
  sitePublish: SitePublish;
}

/**
 * The stores, each listening to the ones it follows. The order is the order
 * their listeners run in: the posts close before the sidebar forgets its filter.
 */
export function makeStores(api: AppApi, texts: PostTexts): Stores {
  const notices = new Notices();
  const panels = new Panels();
  const session = new Session(api, notices);
  const layout = new Layout(session);
  const newBlog = new NewBlogForm(api, session, panels, notices);
  const importBlog = new ImportForm(api, session, panels);
  const posts = new OpenPosts(api, texts, session, notices);
  const journal = new Journal(api, session, posts, notices);
  const preview = new PreviewPane(api, posts, texts, session);
  const form = new FrontMatterForm(api, posts, texts, preview, session, notices);
  const sidebar = new Sidebar(api, session, posts, notices);
  const problems = new Problems(session, posts, panels, notices);
  const siteExport = new SiteExport(api, session, posts, notices);
  const history = new History(api, posts, texts, notices, session);
  const sitePublish = new SitePublish(api, session, posts, notices);
  return { notices, panels, layout, newBlog, importBlog, session, posts, journal, preview, form, sidebar, problems, siteExport, history, sitePublish };
}
