//! TeX math (`$…$`, `$$…$$`, ```` ```math ````) to MathML with pulldown-latex,
//! so that neither the preview nor the exported site needs a script.

use std::panic::{AssertUnwindSafe, catch_unwind};

use pulldown_latex::config::DisplayMode;
use pulldown_latex::{Parser, RenderConfig, Storage, push_mathml};

/// pulldown-latex takes time quadratic in the nesting of groups (20,000 nested
/// `\sqrt{` take seconds); real formulas nest a few levels, so deeper ones are
/// refused rather than allowed to stall a preview.
const MAX_NESTING: usize = 64;
/// A formula longer than this is surely a stray `$$` swallowing prose.
const MAX_BYTES: usize = 32 * 1024;

/// What pulldown-latex says of a command it does not know.
const UNKNOWN_COMMAND: &str = "unknown primitive command found";
/// … and of an environment (its spelling).
const UNKNOWN_ENVIRONMENT: &str = "unkown mathematical environment found";

/// Appends the MathML of `tex` to `out`: `<math display="block">` when
/// `display`, with ` data-line="N"` when `line` is given. KaTeX's TeX is
/// taken (see `tex`). On error `out` is left as it was and the message says
/// what is wrong with the TeX, naming the command at fault where there is one.
pub(super) fn render(tex: &str, display: bool, line: Option<usize>, out: &mut String) -> Result<(), String> {
    if tex.len() > MAX_BYTES {
        return Err(format!("math is too long to render ({} KB; at most {} KB)", tex.len() / 1024, MAX_BYTES / 1024));
    }
    if nesting(tex) > MAX_NESTING {
        return Err(format!("math is nested more than {MAX_NESTING} levels deep"));
    }
    let written = super::escape::without_nul(tex);
    let rewritten = super::tex::rewrite(&written, display);
    let start = out.len();
    let rendered = catch_unwind(AssertUnwindSafe(|| mathml(&rewritten.tex, display, out)));
    let reason = match rendered {
        Ok(Ok(())) => match shown_as_written(&out[start..]) {
            // pulldown-latex writes some commands it does not take as text
            // (`\mathop{\star}` as `\star`): that is no rendering either.
            Some(command) => format!("TeX command `\\{command}` is not supported there"),
            None => {
                if rewritten.marked {
                    super::tex::finish(out, start);
                }
                if let Some(line) = line
                    && out[start..].starts_with("<math")
                {
                    out.insert_str(start + "<math".len(), &format!(" data-line=\"{line}\""));
                }
                return Ok(());
            }
        },
        Ok(Err(reason)) if reason == UNKNOWN_COMMAND => match unknown_command(&written) {
            Some(command) => format!("unknown TeX command `\\{command}`"),
            None => reason,
        },
        Ok(Err(reason)) if reason == UNKNOWN_ENVIRONMENT => match unknown_environment(&written) {
            Some(name) => format!("unknown TeX environment `{name}`"),
            None => reason,
        },
        Ok(Err(reason)) => reason,
        Err(_) => {
            out.truncate(start);
            return Err("math could not be rendered (the TeX renderer failed)".to_string());
        }
    };
    out.truncate(start);
    Err(format!("math could not be rendered: {reason}"))
}

/// pulldown-latex's MathML of `tex`, appended to `out`; or the one-line reason it gives.
fn mathml(tex: &str, display: bool, out: &mut String) -> Result<(), String> {
    let storage = Storage::new();
    let mut events = Vec::new();
    for event in Parser::new(tex, &storage) {
        match event {
            Ok(event) => events.push(event),
            // The error's own Display adds a multi-line drawing of the
            // context; its source is the one-line reason.
            Err(error) => {
                return Err(std::error::Error::source(&error).map_or_else(|| error.to_string(), |s| s.to_string()));
            }
        }
    }
    let config = RenderConfig {
        display_mode: if display { DisplayMode::Block } else { DisplayMode::Inline },
        ..RenderConfig::default()
    };
    push_mathml(out, events.into_iter().map(Ok::<_, std::io::Error>), config).map_err(|e| e.to_string())
}

/// The first TeX command that MathML shows as written (`\star`), if any.
fn shown_as_written(mathml: &str) -> Option<&str> {
    mathml.match_indices('\\').find_map(|(at, _)| {
        let name = &mathml[at + 1..];
        let len = name.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(name.len());
        (len > 0).then(|| &name[..len])
    })
}

/// The first command of `tex` (as the author wrote it) that neither KaTeX's
/// rewriting here nor pulldown-latex knows, if any. Asked only when a
/// formula failed, so each is tried alone.
fn unknown_command(tex: &str) -> Option<&str> {
    let storage = Storage::new();
    tex.match_indices('\\').map(|(at, _)| &tex[at + 1..]).find_map(|rest| {
        let len = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
        let name = &rest[..len];
        if len == 0 || super::tex::rewrites(name) || tex.contains(&format!("\\def\\{name}")) {
            return None;
        }
        let alone = format!("\\{name}");
        let unknown = Parser::new(&alone, &storage).any(|event| {
            event.is_err_and(|e| std::error::Error::source(&e).is_some_and(|s| s.to_string() == UNKNOWN_COMMAND))
        });
        unknown.then_some(name)
    })
}

/// The first environment of `tex` that pulldown-latex does not know, if any.
fn unknown_environment(tex: &str) -> Option<&str> {
    let storage = Storage::new();
    tex.match_indices(r"\begin{").find_map(|(at, _)| {
        let rest = &tex[at + r"\begin{".len()..];
        let name = &rest[..rest.find('}')?];
        let alone = format!("\\begin{{{name}}}\\end{{{name}}}");
        let unknown = Parser::new(&alone, &storage).any(|event| {
            event.is_err_and(|e| std::error::Error::source(&e).is_some_and(|s| s.to_string() == UNKNOWN_ENVIRONMENT))
        });
        unknown.then_some(name)
    })
}

/// How deeply groups nest: `{…}`, `\left…\right` and `\begin…\end` (the
/// braces of `\begin{x}` count too, which only overestimates a little).
fn nesting(tex: &str) -> usize {
    let bytes = tex.as_bytes();
    let (mut depth, mut deepest) = (0usize, 0usize);
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                let rest = &bytes[i + 1..];
                if rest.starts_with(b"left") || rest.starts_with(b"begin") {
                    depth += 1;
                    deepest = deepest.max(depth);
                } else if rest.starts_with(b"right") || rest.starts_with(b"end") {
                    depth = depth.saturating_sub(1);
                }
                // Skip the escaped character (`\{` is a literal brace).
                i += 1;
            }
            b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_and_display_math() {
        let mut out = String::new();
        render(r"x^2", false, Some(3), &mut out).unwrap();
        assert!(out.starts_with(r#"<math data-line="3" display="inline">"#), "{out}");
        assert!(out.contains("<msup>"), "{out}");
        out.clear();
        render(r"\frac{a}{b}", true, Some(7), &mut out).unwrap();
        assert!(out.starts_with(r#"<math data-line="7" display="block">"#), "{out}");
        assert!(out.contains("<mfrac>"), "{out}");
    }

    #[test]
    fn errors_leave_the_output_alone() {
        let mut out = String::from("before");
        let error = render(r"\frac{a", false, None, &mut out).unwrap_err();
        assert_eq!(out, "before");
        assert!(error.contains("unbalanced group"), "{error}");
        assert!(!error.contains('\n'), "{error}");
        let unknown = render(r"a + \frac{1}{2} \nosuchcommand x", false, None, &mut out).unwrap_err();
        assert_eq!(unknown, r"math could not be rendered: unknown TeX command `\nosuchcommand`");
        let environment = render(r"\begin{nosuch} a \end{nosuch}", false, None, &mut out).unwrap_err();
        assert!(environment.ends_with("unknown TeX environment `nosuch`"), "{environment}");
        let shown = render(r"\mathop{\star}_a", false, None, &mut out).unwrap_err();
        assert!(shown.ends_with(r"TeX command `\star` is not supported there"), "{shown}");
        assert_eq!(out, "before");
    }

    #[test]
    fn deep_or_long_math_is_refused_quickly() {
        let mut out = String::new();
        let deep = format!("{}x{}", r"\sqrt{".repeat(1_000), "}".repeat(1_000));
        assert!(render(&deep, true, None, &mut out).unwrap_err().contains("nested"));
        let left = format!("{}x{}", r"\left(".repeat(1_000), r"\right)".repeat(1_000));
        assert!(render(&left, true, None, &mut out).is_err());
        assert!(render(&"x+".repeat(100_000), true, None, &mut out).unwrap_err().contains("too long"));
        assert!(out.is_empty());
        // A few levels are fine, and escaped braces do not count.
        assert_eq!(nesting(r"\{ \{ \{ a \} \} \}"), 0);
        assert_eq!(nesting(r"\left( {a} \right)"), 2);
        render(r"\sqrt{\sqrt{\sqrt{x}}}", false, None, &mut out).unwrap();
    }

    #[test]
    fn nul_is_not_passed_to_the_output() {
        let mut out = String::new();
        render("a\0b", false, None, &mut out).unwrap();
        assert!(!out.contains('\0'));
    }

    /// KaTeX's support table, as `tests/fixtures/katex/commands.tsv` has it:
    /// each command it renders, with a formula that uses it.
    const KATEX: &str = include_str!("../../tests/fixtures/katex/commands.tsv");

    /// How many of KaTeX's commands render here, at least: raise it when
    /// more do, never lower it.
    const KATEX_FLOOR: usize = 969;

    #[test]
    fn what_katex_renders_renders_here() {
        let mut refused: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
        let mut total = 0;
        for line in KATEX.lines().filter(|line| !line.starts_with("# ")) {
            let [command, group, example] = line.splitn(3, '\t').collect::<Vec<_>>()[..] else {
                panic!("not `command<TAB>group<TAB>example`: {line}");
            };
            total += 1;
            let mut out = String::new();
            let Err(message) = render(example, true, None, &mut out) else { continue };
            refused.entry(group).or_default().push(command);
            // A command that fails is the one named, not some other.
            if message.contains("unknown TeX command")
                && let Some(named) = message.split('`').nth(1)
                && command.starts_with('\\')
            {
                assert_eq!(named, command.trim_end_matches('*'), "{example}: {message}");
            }
        }
        let left: usize = refused.values().map(Vec::len).sum();
        let report: Vec<String> =
            refused.iter().map(|(group, commands)| format!("{group}: {}", commands.join(" "))).collect();
        println!("KaTeX's commands rendered: {} of {total}; left:\n{}", total - left, report.join("\n"));
        assert!(
            total - left >= KATEX_FLOOR,
            "{} of {total} render, fewer than {KATEX_FLOOR}:\n{}",
            total - left,
            report.join("\n")
        );
    }
}
