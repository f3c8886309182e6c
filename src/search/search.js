// Hanji's search, in the reader's browser. Written by `hanji export` into
// search/search.js; every page loads it (defer).
//
// The token rule below is the one of src/search/tokens.rs, step by step (read
// that file's comment for the rule); tests/search/tokens.json holds the cases
// both must agree on. The index is loaded as scripts, never fetched, so the
// site searches from file:// too: index.js, then the shards of the query's
// tokens (index/<name>.js), then the files of the posts shown (posts/<n>.js).
(function () {
  "use strict";

  // ----------------------------------------------------------------- tokens

  const ENDINGS = [
    "에서는", "에서도", "으로는", "으로도", "에게서", "이라는", "이라고", "입니다", "이었다", "이다", "에서", "에게",
    "으로", "까지", "부터", "처럼", "보다", "라는", "하는", "하고", "하기", "하면", "했다", "한다", "된다", "되는",
    "에는", "에도", "이나", "은", "는", "이", "가", "을", "를", "의", "에", "로", "와", "과", "도", "만",
  ];

  const ALNUM = /^[\p{Alphabetic}\p{N}]$/u;

  function normalize(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").normalize("NFC").toLowerCase();
  }

  function isCjk(c) {
    const n = c.codePointAt(0);
    return (n >= 0xac00 && n <= 0xd7a3) || (n >= 0x3040 && n <= 0x30ff) || (n >= 0x3400 && n <= 0x4dbf) ||
      (n >= 0x4e00 && n <= 0x9fff) || (n >= 0xf900 && n <= 0xfaff);
  }

  const isConnector = (c) => c === "-" || c === "_" || c === ".";
  const isApostrophe = (c) => c === "'" || c === "\u2019";
  const isLatin = (c) => c !== undefined && ALNUM.test(c) && !isCjk(c);

  // The words of normalized text: {parts, cjk, attached, spaced}.
  function words(text) {
    const chars = Array.from(text);
    const out = [];
    let i = 0;
    let gap = "start";
    while (i < chars.length) {
      const c = chars[i];
      if (isCjk(c)) {
        const start = i;
        while (i < chars.length && isCjk(chars[i])) i++;
        const followsCjk = out.length > 0 && out[out.length - 1].cjk;
        out.push({ parts: [chars.slice(start, i).join("")], cjk: true, attached: gap === "none", spaced: gap === "space" && followsCjk });
        gap = "none";
      } else if (isLatin(c)) {
        const parts = [""];
        while (i < chars.length) {
          const d = chars[i];
          const nextIsLatin = isLatin(chars[i + 1]);
          if (isLatin(d)) parts[parts.length - 1] += d;
          else if (isConnector(d) && nextIsLatin) parts.push("");
          else if (!(isApostrophe(d) && nextIsLatin)) break;
          i++;
        }
        out.push({ parts, cjk: false, attached: gap === "none", spaced: false });
        gap = "none";
      } else {
        gap = gap === "none" && c === " " ? "space" : "other";
        i++;
      }
    }
    return out;
  }

  function grams(run) {
    if (run.length === 1) return [run[0]];
    const out = [];
    for (let i = 0; i + 1 < run.length; i++) out.push(run[i] + run[i + 1]);
    return out;
  }

  function stem(word) {
    const letters = Array.from(word).length;
    if (letters <= 3 || !/[a-z]$/.test(word)) return word;
    let w = word;
    if (w.endsWith("ies") && letters > 4) return w.slice(0, -3) + "y";
    if (["sses", "xes", "ches", "shes"].some((e) => w.endsWith(e))) w = w.slice(0, -2);
    else if (w.endsWith("s") && !["ss", "is"].some((e) => w.endsWith(e))) w = w.slice(0, -1);
    for (const end of ["ing", "ed"]) {
      if (!w.endsWith(end)) continue;
      let rest = w.slice(0, -end.length);
      if (Array.from(rest).length >= 3 && /[aeiouy]/.test(rest)) {
        const n = rest.length;
        if (n >= 2 && rest[n - 1] === rest[n - 2] && /[bcdfghjkmnpqrtvwxy]/.test(rest[n - 1])) rest = rest.slice(0, -1);
        w = rest;
        break;
      }
    }
    if (w.endsWith("e") && Array.from(w).length >= 4) w = w.slice(0, -1);
    return w;
  }

  function latinTokens(parts) {
    const out = parts.map(stem);
    if (parts.length > 1) out.push(stem(parts.join("")));
    return out;
  }

  // Every token of a text, in order, with repeats.
  function tokens(text) {
    const ws = words(normalize(text));
    const out = [];
    ws.forEach((w, n) => {
      if (w.cjk) {
        const run = Array.from(w.parts[0]);
        if (w.spaced) {
          const before = Array.from(ws[n - 1].parts[0]);
          out.push(before[before.length - 1] + run[0]);
        }
        out.push(...grams(run));
      } else {
        out.push(...latinTokens(w.parts));
      }
    });
    return out;
  }

  // The words of a query: [{all: [[term]], optional: [term], join: term or
  // null}], a term being {text, prefix}.
  function query(text) {
    const normalized = normalize(text);
    const lastChar = Array.from(normalized).pop();
    const typing = !(lastChar !== undefined && !ALNUM.test(lastChar));
    const ws = words(normalized);
    const last = ws.length - 1;
    const exact = (t) => ({ text: t, prefix: false });
    const out = [];
    ws.forEach((w, n) => {
      const typed = typing && n === last;
      const q = { all: [], optional: [], join: null };
      if (w.cjk) {
        const word = w.parts[0];
        const run = Array.from(word);
        if (w.spaced && out.length > 0) {
          const before = Array.from(ws[n - 1].parts[0]);
          out[out.length - 1].join = exact(before[before.length - 1] + run[0]);
        }
        const ending = ENDINGS.find((e) => word.endsWith(e) && run.length >= Array.from(e).length + 2);
        const afterLatin = w.attached && n > 0 && !ws[n - 1].cjk;
        if (afterLatin && ENDINGS.includes(word)) {
          q.optional.push(...grams(run).map(exact));
        } else if (ending !== undefined) {
          const stemLength = run.length - Array.from(ending).length;
          const all = grams(run);
          q.all.push(...all.slice(0, stemLength - 1).map((g) => [exact(g)]));
          q.optional.push(...all.slice(stemLength - 1).map(exact));
        } else if (run.length === 1 && typed) {
          q.all.push([{ text: word, prefix: true }]);
        } else {
          q.all.push(...grams(run).map((g) => [exact(g)]));
        }
      } else {
        const joined = w.parts.join("");
        const any = [exact(stem(joined))];
        if (typed && Array.from(joined).length >= 2) any.push({ text: joined, prefix: true });
        q.all.push(any);
        if (w.parts.length > 1) q.optional.push(...w.parts.map((p) => exact(stem(p))));
      }
      out.push(q);
    });
    return out.filter((q) => q.all.length > 0 || q.optional.length > 0);
  }

  // ------------------------------------------------------------------ index

  const TITLE = 1, TAG = 2, SUMMARY = 4;
  const script = document.currentScript;
  const base = script ? script.src.replace(/[^/]*$/, "") : "";
  const loaded = new Map();
  const data = { manifest: null, shards: new Map(), posts: new Map() };

  function load(path) {
    if (!loaded.has(path)) {
      loaded.set(path, new Promise((resolve, reject) => {
        const s = document.createElement("script");
        s.src = base + path;
        s.onload = () => resolve();
        s.onerror = () => {
          loaded.delete(path);
          reject(new Error("cannot load " + path));
        };
        document.head.appendChild(s);
      }));
    }
    return loaded.get(path);
  }

  // Code point order, as Rust orders strings (JavaScript's < compares UTF-16 units).
  function before(a, b) {
    const x = Array.from(a), y = Array.from(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] !== y[i]) return x[i].codePointAt(0) < y[i].codePointAt(0);
    }
    return x.length < y.length;
  }

  // A shard's name: its first token's FNV-1a hash (64 bits, of its UTF-8
  // bytes) in hex, as the index names its file.
  const names = new Map();
  function shardName(at) {
    const first = data.manifest.shards[at];
    if (!names.has(first)) {
      let h = 0xcbf29ce484222325n;
      for (const b of new TextEncoder().encode(first)) h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
      names.set(first, h.toString(16).padStart(16, "0"));
    }
    return names.get(first);
  }

  // The shard a token is in: the last one whose first token is not after it.
  function shardOf(token) {
    const shards = data.manifest.shards;
    let lo = 0, hi = shards.length - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (before(token, shards[mid])) hi = mid - 1;
      else {
        found = mid;
        lo = mid + 1;
      }
    }
    return found;
  }

  // The shards (by number) a term needs: a prefix, the run its tokens are in.
  function shardsFor(term) {
    const shards = data.manifest.shards;
    const first = Math.max(0, shardOf(term.text));
    const out = [];
    if (shards.length === 0) return out;
    out.push(first);
    if (term.prefix) {
      for (let i = first + 1; i < shards.length && shards[i].startsWith(term.text); i++) out.push(i);
    }
    return out;
  }

  // A token's posts as the shard has them: [post, code, …], each post
  // counted from the one before; none if the index has not the token.
  function postings(token) {
    const at = shardOf(token);
    const shard = at < 0 ? undefined : data.shards.get(shardName(at));
    return (shard && shard[token]) || [];
  }

  // The index's tokens a term matches.
  function matching(term) {
    if (!term.prefix) return [term.text];
    const out = new Set([term.text]);
    for (const at of shardsFor(term)) {
      const shard = data.shards.get(shardName(at));
      for (const token of Object.keys(shard)) if (token.startsWith(term.text)) out.add(token);
    }
    return [...out];
  }

  async function ready(words) {
    if (data.manifest === null) await load("index.js");
    const names = new Set();
    for (const w of words) {
      for (const term of w.all.flat().concat(w.optional, w.join ? [w.join] : [])) {
        for (const at of shardsFor(term)) names.add(shardName(at));
      }
    }
    await Promise.all([...names].map((name) => load("index/" + name + ".js")));
  }

  // How much a token counts in each post: its rarity (BM25's idf) times its
  // fields and its weight in the text.
  function rarity(df) {
    const n = data.manifest.posts;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  function worth(code) {
    return (code & TITLE ? 4 : 0) + (code & TAG ? 3 : 0) + (code & SUMMARY ? 1.5 : 0) + (code >> 3) / 15 * 2.2;
  }

  // A term's matches, one place per post: the best score of a token it
  // matches (a longer token a prefix matched counts half) and whether that
  // token is in the post's title or tags.
  function matches(term) {
    const n = data.manifest.posts;
    const scores = new Float64Array(n);
    const top = new Uint8Array(n);
    for (const token of matching(term)) {
      const list = postings(token);
      const idf = rarity(list.length / 2) * (token === term.text ? 1 : 0.5);
      let post = 0;
      for (let i = 0; i < list.length; i += 2) {
        post += list[i];
        const code = list[i + 1];
        const s = idf * WORTH[code];
        if (s > scores[post]) scores[post] = s;
        if (code & (TITLE | TAG)) top[post] = 1;
      }
    }
    return { scores, top };
  }

  // Each code's worth, worked out once (a query reads thousands of codes).
  const WORTH = Float64Array.from({ length: 128 }, (_, code) => worth(code));

  // The posts that match every word of the query, best first: those with
  // more words in their title or tags first, then by score, then newest.
  async function search(text) {
    const ws = query(text);
    if (ws.length === 0) return { words: ws, posts: [], ranks: [] };
    await ready(ws);
    const n = data.manifest.posts;
    const score = new Float64Array(n);
    const tier = new Uint16Array(n);
    const matched = new Uint16Array(n);
    const required = ws.filter((w) => w.all.length > 0);
    for (const w of required) {
      // The word is there where every entry of `all` is (one of its terms),
      // in the title or tags where each is there.
      const here = new Float64Array(n);
      const top = new Uint8Array(n).fill(1);
      const count = new Uint16Array(n);
      for (const any of w.all) {
        // The best of the group's terms (most groups have one).
        let best = null;
        let bestTop = null;
        for (const term of any) {
          const m = matches(term);
          if (best === null) {
            best = m.scores;
            bestTop = m.top;
            continue;
          }
          for (let p = 0; p < n; p++) {
            if (m.scores[p] > best[p]) best[p] = m.scores[p];
            if (m.top[p]) bestTop[p] = 1;
          }
        }
        for (let p = 0; p < n; p++) {
          if (best[p] > 0) {
            count[p]++;
            here[p] += best[p];
          }
          if (!bestTop[p]) top[p] = 0;
        }
      }
      for (let p = 0; p < n; p++) {
        if (count[p] === w.all.length) {
          matched[p]++;
          score[p] += here[p];
          if (top[p]) tier[p]++;
        }
      }
    }
    const found = [];
    for (let p = 0; p < n; p++) if (matched[p] === required.length) found.push(p);
    const isFound = new Uint8Array(n);
    for (const p of found) isFound[p] = 1;
    for (const w of ws) {
      for (const term of w.optional) {
        const m = matches(term);
        for (let p = 0; p < n; p++) {
          if (m.scores[p] === 0) continue;
          if (!isFound[p] && required.length === 0) {
            isFound[p] = 1;
            found.push(p);
          }
          score[p] += m.scores[p] / 2;
        }
      }
      // Two words together, as typed: a word of their own for the tier.
      if (w.join) {
        const m = matches(w.join);
        for (const p of found) {
          score[p] += m.scores[p] / 2;
          if (m.top[p]) tier[p]++;
        }
      }
    }
    const best = bestFirst(found, tier, score);
    return { words: ws, posts: best, ranks: best.map((p) => ({ tier: tier[p], score: score[p] })) };
  }

  // The posts found, best first: more words in the title or tags, then a
  // higher score, then newest. Sorted as numbers (the browser's own sort,
  // not a comparison called thousands of times): tier, the score's place
  // among the scores and the post, each in 24 bits of one exact number.
  function bestFirst(found, tier, score) {
    const SPAN = 16777216;
    const scores = Float64Array.from(found, (p) => score[p]).sort();
    if (found.length >= SPAN || found.some((p) => tier[p] >= 32)) {
      return found.slice().sort((a, b) => tier[b] - tier[a] || score[b] - score[a] || b - a);
    }
    const keys = new Float64Array(found.length);
    for (let i = 0; i < found.length; i++) {
      const p = found[i];
      // The place of the post's score among all, the first of equal ones.
      let lo = 0;
      let hi = scores.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (scores[mid] < score[p]) lo = mid + 1;
        else hi = mid;
      }
      keys[i] = (tier[p] * SPAN + lo) * SPAN + p;
    }
    keys.sort();
    const best = new Array(found.length);
    for (let i = 0; i < keys.length; i++) best[keys.length - 1 - i] = keys[i] % SPAN;
    return best;
  }

  // What results show of these posts: their groups' files (index.js says how
  // many posts a file holds).
  async function posts(ids) {
    if (data.manifest === null) await load("index.js");
    const files = new Set(ids.map((id) => Math.floor(id / data.manifest.group)));
    await Promise.all([...files].map((n) => load("posts/" + n + ".js")));
    return ids.map((id) => data.posts.get(id));
  }

  // ---------------------------------------------------------------- marking

  // The spans [start, end) of `text` (UTF-16 offsets) that the query's
  // required terms match: Korean by the pairs of characters matched, other
  // words whole.
  function marks(text, ws) {
    const terms = ws.flatMap((w) => w.all.flat());
    const hit = (token) => terms.some((t) => (t.prefix ? token.startsWith(t.text) : token === t.text));
    const spans = [];
    const chars = Array.from(text);
    const at = [];
    let offset = 0;
    for (const c of chars) {
      at.push(offset);
      offset += c.length;
    }
    at.push(offset);
    const isWordChar = (c) => c !== undefined && /^[\p{Alphabetic}\p{N}\p{M}]$/u.test(c) && !isCjk(c);
    let i = 0;
    while (i < chars.length) {
      if (isCjk(chars[i])) {
        const start = i;
        while (i < chars.length && isCjk(chars[i])) i++;
        const run = chars.slice(start, i);
        const gs = grams(run);
        gs.forEach((g, k) => {
          if (hit(g)) spans.push([at[start + k], at[Math.min(start + k + (run.length === 1 ? 1 : 2), i)]]);
        });
      } else if (isWordChar(chars[i])) {
        const start = i;
        while (i < chars.length && (isWordChar(chars[i]) ||
          ((isConnector(chars[i]) || isApostrophe(chars[i])) && isWordChar(chars[i + 1])))) i++;
        const piece = chars.slice(start, i).join("");
        const found = words(normalize(piece)).some((w) => !w.cjk && latinTokens(w.parts).some(hit));
        if (found) spans.push([at[start], at[i]]);
      } else {
        i++;
      }
    }
    // Merge overlapping spans (neighbouring pairs of one Korean word).
    spans.sort((a, b) => a[0] - b[0]);
    const merged = [];
    for (const s of spans) {
      const lastSpan = merged[merged.length - 1];
      if (lastSpan && s[0] <= lastSpan[1]) lastSpan[1] = Math.max(lastSpan[1], s[1]);
      else merged.push(s.slice());
    }
    return merged;
  }

  // The passage of a post that shows the most of the query's words.
  function passage(post, ws) {
    const count = (text) => {
      const spans = marks(text, ws);
      const seen = new Set(spans.map(([a, b]) => normalize(text.slice(a, b))));
      return [seen.size, spans.length];
    };
    let best = null;
    for (const text of [...post.passages, post.summary]) {
      if (!text) continue;
      const [distinct, total] = count(text);
      if (distinct > 0 && (best === null || distinct > best[1] || (distinct === best[1] && total > best[2]))) {
        best = [text, distinct, total];
      }
    }
    return best ? best[0] : post.summary || post.passages[0] || "";
  }

  // `text` as nodes, the matched spans in <mark>, cut to about `room`
  // characters around the first match.
  function marked(text, ws, room) {
    let spans = marks(text, ws);
    let start = 0;
    let end = text.length;
    if (room && text.length > room) {
      const first = spans.length ? spans[0][0] : 0;
      start = Math.max(0, first - Math.floor(room / 3));
      end = Math.min(text.length, start + room);
      // Cut at spaces, not inside words.
      if (start > 0) start = text.indexOf(" ", start) + 1 || start;
      if (end < text.length) end = text.lastIndexOf(" ", end) > start ? text.lastIndexOf(" ", end) : end;
      spans = spans.filter(([a, b]) => a >= start && b <= end);
    }
    const out = [];
    if (start > 0) out.push(document.createTextNode("… "));
    let at = start;
    for (const [a, b] of spans) {
      if (a > at) out.push(document.createTextNode(text.slice(at, a)));
      const m = document.createElement("mark");
      m.textContent = text.slice(a, b);
      out.push(m);
      at = b;
    }
    if (end > at) out.push(document.createTextNode(text.slice(at, end)));
    if (end < text.length) out.push(document.createTextNode(" …"));
    return out;
  }

  // --------------------------------------------------------------- the page

  const PAGE = 10;

  function element(name, className, children) {
    const e = document.createElement(name);
    if (className) e.className = className;
    for (const c of children || []) e.append(c);
    return e;
  }

  function result(post, ws) {
    const link = element("a", "", marked(post.title, ws));
    link.href = post.link;
    const meta = [];
    if (post.date) meta.push(element("span", "search-result-date", [post.date]));
    for (const tag of post.tags) meta.push(element("span", "search-result-tag", marked(tag, ws)));
    return element("li", "search-result", [
      element("h2", "search-result-title", [link]),
      element("p", "search-result-meta", meta),
      element("p", "search-result-passage", marked(passage(post, ws), ws, 220)),
    ]);
  }

  function searchPage(form) {
    const input = form.querySelector("input");
    const status = document.querySelector(".search-status");
    const list = document.querySelector(".search-results");
    const more = document.querySelector(".search-more");
    // The page's words, as the theme writes them in its language.
    const words = form.dataset;
    const say = (word, fill) => word.replace(/\{(\w+)\}/g, (_, name) => fill[name]);
    let asked = 0;
    let found = { words: [], posts: [] };
    let shown = 0;

    async function showMore(current) {
      const ids = found.posts.slice(shown, shown + PAGE);
      const shownPosts = await posts(ids);
      if (current !== asked) return;
      for (const post of shownPosts) list.append(result(post, found.words));
      shown += ids.length;
      more.hidden = shown >= found.posts.length;
    }

    async function run() {
      const current = ++asked;
      const text = input.value;
      try {
        history.replaceState(null, "", text.trim() ? "?q=" + encodeURIComponent(text) : location.pathname);
      } catch (_) {
        // Some browsers refuse to change a file:// address; the search works all the same.
      }
      if (!text.trim()) {
        list.replaceChildren();
        more.hidden = true;
        status.textContent = words.prompt || "Type words to look for in titles, tags and posts.";
        return;
      }
      try {
        const answer = await search(text);
        if (current !== asked) return;
        found = answer;
        shown = 0;
        list.replaceChildren();
        const n = found.posts.length;
        const fill = { n, q: text.trim() };
        status.textContent = n === 0 ? say(words.none || "No posts found for “{q}”.", fill) :
          n === 1 ? say(words.one || "1 post found for “{q}”.", fill) : say(words.many || "{n} posts found for “{q}”.", fill);
        await showMore(current);
      } catch (error) {
        if (current !== asked) return;
        const fill = { error: error.message };
        status.textContent = say(words.failed || "The search index could not be loaded ({error}). Export the site again.", fill);
      }
    }

    // The index's list of shards, ready before the first word is typed.
    load("index.js").catch(() => {});
    form.hidden = false;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      run();
    });
    input.addEventListener("input", run);
    more.addEventListener("click", () => showMore(asked));
    const q = new URLSearchParams(location.search).get("q");
    if (q) input.value = q;
    run();
    input.focus();
  }

  // Elsewhere the header's link to the search page becomes a search box that
  // goes there with its words.
  function searchBox(link) {
    const input = element("input", "search-box-input");
    input.type = "search";
    input.name = "q";
    input.placeholder = link.dataset.placeholder || "Search";
    input.setAttribute("aria-label", link.dataset.label || "Search the posts");
    const form = element("form", "search-box", [input]);
    form.setAttribute("role", "search");
    form.action = link.href;
    link.replaceWith(form);
  }

  function start() {
    const form = document.querySelector(".search-form");
    if (form) searchPage(form);
    else {
      const link = document.querySelector(".search-link");
      if (link) searchBox(link);
    }
  }

  window.hanjiSearch = {
    // Called by the index's scripts.
    index(manifest) {
      data.manifest = manifest;
    },
    shard(name, tokens) {
      data.shards.set(name, tokens);
    },
    post(id, post) {
      data.posts.set(id, post);
    },
    // For the tests, which run the shared cases here.
    normalize, tokens, query, stem, search, posts, marks, passage,
  };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
