//! Preview addresses: a changing `?v=N` makes the iframe load a page again.

function split(url: string): { base: string; fragment: string } {
  const hash = url.indexOf("#");
  return hash < 0 ? { base: url, fragment: "" } : { base: url.slice(0, hash), fragment: url.slice(hash) };
}

/** `url` with `v=N` in its query (replacing an earlier one), before any fragment. */
export function withVersion(url: string, version: number): string {
  const { base, fragment } = split(url);
  const query = base.indexOf("?");
  if (query < 0) return `${base}?v=${version}${fragment}`;
  const params = base
    .slice(query + 1)
    .split("&")
    .filter((p) => p !== "" && !p.startsWith("v="));
  params.push(`v=${version}`);
  return `${base.slice(0, query)}?${params.join("&")}${fragment}`;
}
