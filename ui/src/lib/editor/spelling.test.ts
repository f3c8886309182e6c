import { EditorState } from "@codemirror/state";
import { describe, expect, it, vi } from "vitest";
import { misspelledField, misspelledIn, setMisspelled, Speller } from "./spelling";

function fakeCore() {
  return {
    misspelled: vi.fn(async (text: string, _lang: string) =>
      [...text.matchAll(/wrld|됬다/gu)].map((m) => ({ from: m.index, to: m.index + m[0].length, word: m[0] })),
    ),
    spellingSuggestions: vi.fn(async (_word: string, _lang: string) => ["world"]),
  };
}

describe("the speller", () => {
  it("waits for the page's language, then asks the core in it", async () => {
    const core = fakeCore();
    const speller = new Speller(core);
    expect(await speller.check("wrld")).toBeNull();
    expect(core.misspelled).not.toHaveBeenCalled();
    speller.setLanguage("ko");
    expect(await speller.check("안녕 wrld")).toEqual([{ from: 3, to: 7, word: "wrld" }]);
    expect(core.misspelled.mock.calls).toEqual([["안녕 wrld", "ko"]]);
    expect(await speller.suggest("wrld")).toEqual(["world"]);
    expect(core.spellingSuggestions.mock.calls).toEqual([["wrld", "ko"]]);
  });

  it("has the open post checked again when the language changes, and only then", () => {
    const speller = new Speller(fakeCore());
    const heard = vi.fn();
    const stop = speller.listen(heard);
    speller.setLanguage("ko");
    speller.setLanguage("ko");
    speller.setLanguage("en");
    expect(heard).toHaveBeenCalledTimes(2);
    stop();
    speller.setLanguage("ko");
    expect(heard).toHaveBeenCalledTimes(2);
  });
});

describe("the marks of unknown words", () => {
  const answer = async (state: EditorState) => {
    const words = await fakeCore().misspelled(state.doc.toString(), "ko");
    return setMisspelled.of({ doc: state.doc, words });
  };

  it("cover every unknown word of the whole text, however long", async () => {
    const text = "첫 줄 wrld\n" + "맞는 글.\n".repeat(2000) + "끝에 됬다\n";
    let state = EditorState.create({ doc: text, extensions: [misspelledField] });
    state = state.update({ effects: await answer(state) }).state;
    expect(misspelledIn(state).map(([, , word]) => word)).toEqual(["wrld", "됬다"]);
  });

  it("drop an answer for a text that changed since, and follow edits", async () => {
    let state = EditorState.create({ doc: "a wrld b", extensions: [misspelledField] });
    const stale = await answer(state);
    state = state.update({ changes: { from: 0, insert: "xx " } }).state;
    state = state.update({ effects: stale }).state;
    expect(misspelledIn(state)).toEqual([]);
    state = state.update({ effects: await answer(state) }).state;
    expect(misspelledIn(state)).toEqual([[5, 9, "wrld"]]);
    state = state.update({ changes: { from: 0, insert: "yy" } }).state;
    expect(misspelledIn(state)).toEqual([[7, 11, "wrld"]]);
  });
});
