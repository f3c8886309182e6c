// The shapes that cross between the Rust core and the UI, in one place: the
// rest of the UI imports IPC types from here only. They are generated from the
// Rust types in `src-tauri/src/view.rs` into `ipc.ts` (a test fails when the
// two differ); only the form's own names below are written here. Types only.

export type {
  AppError,
  BlogView,
  Diagnostic,
  ErrorKind,
  ExportProgress,
  ExportSummary,
  FileChange,
  Fields,
  Heading,
  ImportCount,
  ImportNote,
  ImportReport,
  Imported,
  Loading,
  PlacedPost,
  PostItem,
  PostsChange,
  PostText,
  Misspelled,
  Preview,
  PublishDone,
  PublishInfo,
  PublishProgress,
  SourcesStatus,
  Recovered,
  Renamed,
  RetagDone,
  RetagPlan,
  Saved,
  Settings,
  Severity,
  StartInfo,
  TagItem,
  TargetForm,
  TargetView,
  VersionCause,
  VersionItem,
  WatchState,
  WatchUpdate,
} from "./ipc";

export type FieldKey = "title" | "date" | "tags" | "summary" | "draft";
/** null removes the field. Dates are `YYYY-MM-DD`. */
export type FieldValue = string | string[] | boolean | null;
