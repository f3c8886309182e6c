//! Tag slugs as the core makes them (github-slugger): lowercase, spaces to `-`,
//! punctuation dropped, letters of every script kept. The UI needs them to match
//! a post's tags against a clicked tag and to spot duplicate chips.

const DROPPED = /[^\p{L}\p{M}\p{N}\p{Pc} -]/gu;

export function slugify(name: string): string {
  return name.normalize("NFC").toLowerCase().trim().replace(DROPPED, "").replace(/ /g, "-");
}
