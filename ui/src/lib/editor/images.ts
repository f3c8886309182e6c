//! Images pasted or dropped into the editor are handed to the app, which saves
//! them beside the post and inserts the Markdown.

import type { Extension } from "@codemirror/state";
import { EditorView } from "@codemirror/view";

const imagesIn = (files: FileList | undefined | null) =>
  Array.from(files ?? []).filter((f) => f.type.startsWith("image/"));

/** `onImage` gets each image; the cursor is already where its Markdown goes. */
export function imageDrop(onImage: (file: File) => void): Extension {
  return EditorView.domEventHandlers({
    paste(event) {
      const images = imagesIn(event.clipboardData?.files);
      if (images.length === 0) return false;
      event.preventDefault();
      images.forEach(onImage);
      return true;
    },
    drop(event, view) {
      const images = imagesIn(event.dataTransfer?.files);
      if (images.length === 0) return false;
      event.preventDefault();
      const pos = view.posAtCoords({ x: event.clientX, y: event.clientY });
      if (pos !== null) view.dispatch({ selection: { anchor: pos } });
      images.forEach(onImage);
      return true;
    },
  });
}
