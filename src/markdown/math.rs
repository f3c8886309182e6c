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

/// Appends the MathML of `tex` to `out`: `<math display="block">` when
/// `display`, with ` data-line="N"` when `line` is given. On error `out` is left
/// as it was and the message says what is wrong with the TeX.
pub(super) fn render(tex: &str, display: bool, line: Option<usize>, out: &mut String) -> Result<(), String> {
    if tex.len() > MAX_BYTES {
        return Err(format!("math is too long to render ({} KB; at most {} KB)", tex.len() / 1024, MAX_BYTES / 1024));
    }
    if nesting(tex) > MAX_NESTING {
        return Err(format!("math is nested more than {MAX_NESTING} levels deep"));
    }
    let tex = super::escape::without_nul(tex);
    let tex = infix_fractions(&tex);
    let start = out.len();
    let rendered = catch_unwind(AssertUnwindSafe(|| {
        let storage = Storage::new();
        let mut events = Vec::new();
        for event in Parser::new(&tex, &storage) {
            match event {
                Ok(event) => events.push(event),
                Err(error) => {
                    // The error's own Display adds a multi-line drawing of the
                    // context; its source is the one-line reason.
                    let reason = std::error::Error::source(&error).map_or_else(|| error.to_string(), |s| s.to_string());
                    return Err(reason);
                }
            }
        }
        let config = RenderConfig {
            display_mode: if display { DisplayMode::Block } else { DisplayMode::Inline },
            ..RenderConfig::default()
        };
        push_mathml(out, events.into_iter().map(Ok::<_, std::io::Error>), config).map_err(|e| e.to_string())
    }));
    match rendered {
        Ok(Ok(())) => {
            if let Some(line) = line
                && out[start..].starts_with("<math")
            {
                out.insert_str(start + "<math".len(), &format!(" data-line=\"{line}\""));
            }
            Ok(())
        }
        Ok(Err(reason)) => {
            out.truncate(start);
            Err(format!("math could not be rendered: {reason}"))
        }
        Err(_) => {
            out.truncate(start);
            Err("math could not be rendered (the TeX renderer failed)".to_string())
        }
    }
}

/// The infix commands of plain TeX, as KaTeX takes them, and what each group
/// they split becomes: `{1 \over N}` → `{\frac{1}{N}}`.
const INFIX: &[(&str, &str)] = &[(r"\over", r"\frac"), (r"\choose", r"\binom"), (r"\atop", r"\genfrac{}{}{0pt}{}")];

/// `tex` with each group (braces, or the whole formula) that holds an infix
/// fraction (`\over`, `\choose`, `\atop`) at its own level written as the
/// command pulldown-latex knows: the part before it over the part after.
fn infix_fractions(tex: &str) -> std::borrow::Cow<'_, str> {
    if !INFIX.iter().any(|(infix, _)| has_command(tex, infix)) {
        return std::borrow::Cow::Borrowed(tex);
    }
    std::borrow::Cow::Owned(rewrite_group(tex))
}

/// Whether `tex` holds the command `name` (not a longer one: `\overline`).
fn has_command(tex: &str, name: &str) -> bool {
    tex.match_indices(name).any(|(at, _)| !tex[at + name.len()..].starts_with(|c: char| c.is_ascii_alphabetic()))
}

/// One group's inside, its subgroups rewritten first.
fn rewrite_group(inside: &str) -> String {
    let bytes = inside.as_bytes();
    let mut out = String::with_capacity(inside.len() + 16);
    // Where, in `out`, this group's own infix stands: (its position, the command).
    let mut split: Option<(usize, &str)> = None;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                let name_len = inside[i + 1..].find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(inside.len() - i - 1);
                let len = if name_len == 0 { (i + 1 < bytes.len()) as usize + 1 } else { name_len + 1 };
                let command = &inside[i..i + len.min(inside.len() - i)];
                match INFIX.iter().find(|(infix, _)| *infix == command) {
                    Some((_, frac)) if split.is_none() => split = Some((out.len(), frac)),
                    _ => out.push_str(command),
                }
                i += command.len().max(1);
            }
            b'{' => match matching_brace(inside, i) {
                Some(end) => {
                    out.push('{');
                    out.push_str(&rewrite_group(&inside[i + 1..end]));
                    out.push('}');
                    i = end + 1;
                }
                None => {
                    out.push_str(&inside[i..]);
                    break;
                }
            },
            _ => {
                let next = inside[i..].find(['\\', '{']).map_or(inside.len(), |n| i + n.max(1));
                out.push_str(&inside[i..next]);
                i = next;
            }
        }
    }
    match split {
        Some((at, frac)) => format!("{frac}{{{}}}{{{}}}", out[..at].trim(), out[at..].trim()),
        None => out,
    }
}

/// The `}` that closes the `{` at `open`, skipping escaped braces.
fn matching_brace(text: &str, open: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
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
        assert!(render(r"\nosuchcommand x", false, None, &mut out).is_err());
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
    fn infix_fractions_of_plain_tex_are_fractions() {
        assert_eq!(infix_fractions(r"{1 \over N}\sum_i x_i"), r"{\frac{1}{N}}\sum_i x_i");
        assert_eq!(infix_fractions(r"a+b \over c"), r"\frac{a+b}{c}");
        assert_eq!(infix_fractions(r"{n \choose k}"), r"{\binom{n}{k}}");
        assert_eq!(infix_fractions(r"{ {a \over b} \over c}"), r"{\frac{{\frac{a}{b}}}{c}}");
        assert_eq!(infix_fractions(r"\overline{x} + \{ y \}"), r"\overline{x} + \{ y \}", "left alone");
        let mut out = String::new();
        render(r"{1 \over N} + {n \choose k}", false, None, &mut out).unwrap();
        assert!(out.contains("<mfrac>"), "{out}");
        render(r"{a \atop b}", false, None, &mut out).unwrap();
    }

    #[test]
    fn nul_is_not_passed_to_the_output() {
        let mut out = String::new();
        render("a\0b", false, None, &mut out).unwrap();
        assert!(!out.contains('\0'));
    }
}
