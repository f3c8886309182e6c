import { expect, it } from "vitest";
import { FakeCore, fakeApp, postItem } from "./fake-core";
import { fieldOf, progressText, withField } from "./publish.svelte";
import type { AppError, TargetForm } from "./types";

const PATH = "posts/a.md";

async function started() {
  const core = new FakeCore();
  core.put(PATH, "---\ntitle: A\n---\nHello\n");
  core.blog.posts = [postItem(PATH, "A")];
  const app = fakeApp(core);
  await app.session.start();
  return app;
}

const folder: TargetForm = { name: "usb", kind: "folder", fields: [["path", "/media/usb/blog"]] };

it("opens on the form when the blog has no target, and on the targets once one is saved", async () => {
  const app = await started();
  await app.sitePublish.open();
  expect(app.sitePublish.state?.phase).toBe("form");
  await app.sitePublish.save(folder, "");
  expect(app.api.saveTarget).toHaveBeenCalledWith(folder, null);
  expect(app.sitePublish.state).toEqual({ phase: "choose" });
  expect(app.sitePublish.info?.targets.map((t) => t.form.name)).toEqual(["usb"]);
});

it("saves the open posts before publishing, then shows the summary", async () => {
  const app = await started();
  await app.posts.openPost(PATH);
  app.editor.type(PATH, "---\ntitle: A\n---\nHello, edited\n");
  await app.sitePublish.publish("usb");
  expect(app.api.savePost).toHaveBeenCalled();
  expect(app.api.savePost.mock.invocationCallOrder[0]).toBeLessThan(app.api.publishBlog.mock.invocationCallOrder[0]);
  expect(app.sitePublish.state?.phase).toBe("done");
});

it("asks for the secret again when the target refused it, and offers to trust an unknown server", async () => {
  const app = await started();
  app.core.targets = [{ form: folder, secret: "the password", hasSecret: true }];
  await app.sitePublish.open();
  const refused: AppError = { kind: "publish", message: "wrong password", path: null, hint: "enter it again", fault: "secret" };
  app.api.publishBlog.mockRejectedValueOnce(refused);
  await app.sitePublish.publish("usb");
  expect(app.sitePublish.state).toEqual({ phase: "choose" });
  expect(app.sitePublish.askSecret).toBe("usb");
  expect(app.sitePublish.errorLines).toEqual({ message: "wrong password", hint: "enter it again" });

  const unknown: AppError = { kind: "publish", message: "not known", path: null, hint: "trust it", fault: "host_key" };
  app.api.publishBlog.mockRejectedValueOnce(unknown);
  await app.sitePublish.publish("usb", "secret");
  expect(app.api.publishBlog).toHaveBeenLastCalledWith("usb", "secret", expect.any(Function));
  expect(app.sitePublish.trustable).toEqual(folder);
  await app.sitePublish.trust(folder);
  expect(app.api.trustHost).toHaveBeenCalledWith(folder);
  expect(app.sitePublish.trustable).toBeNull();
});

it("cancels the publish running", async () => {
  const app = await started();
  const running = app.sitePublish.publish("usb");
  app.sitePublish.cancel();
  await running;
  expect(app.api.cancelPublish).toHaveBeenCalled();
});

it("edits a form's fields and says how far a publish is", () => {
  const form = withField(withField(folder, "url", "https://x/"), "path", "/mnt/b");
  expect(fieldOf(form, "path")).toBe("/mnt/b");
  expect(fieldOf(withField(form, "url", ""), "url")).toBe("");
  expect(progressText({ step: "sending", path: "a", done: 3, total: 10, bytes: 2048, totalBytes: 3 * 1024 * 1024 })).toBe(
    "Sending 3 of 10 files, 2 KB of 3.0 MB",
  );
  expect(progressText({ step: "exporting", done: 1, total: 4 })).toBe("Exporting the site… 1 of 4");
});
