//! KaTeX's TeX as pulldown-latex takes it: the commands KaTeX renders that
//! pulldown-latex does not know or reads otherwise, written in TeX it does
//! know before the formula is parsed (`\R` → `\mathbb{R}`, `{1 \over N}` →
//! `{\frac{1}{N}}`, `\text{\'e}` → `\text{é}`), and the few things it cannot
//! write at all (a box, a phantom, a size, a brace in text) asked for with a
//! mark and written into its MathML afterwards. What KaTeX renders is
//! measured by `tests/fixtures/katex/commands.tsv` (see `math.rs`).

use std::borrow::Cow;
use std::collections::BTreeSet;

/// A formula ready for pulldown-latex, and whether its MathML must be
/// finished with [`finish`].
pub(super) struct Rewritten<'a> {
    pub tex: Cow<'a, str>,
    pub marked: bool,
}

/// `tex` with KaTeX's commands written as pulldown-latex takes them.
/// `display` is whether the formula is a display one (limits go under an
/// operator's name there, beside it inline, as KaTeX places them).
pub(super) fn rewrite(tex: &str, display: bool) -> Rewritten<'_> {
    if !tex.contains('\\') {
        return Rewritten { tex: Cow::Borrowed(tex), marked: false };
    }
    let mut writer = Writer { display, defined: defined(tex), marked: false, tag: None, lines: false };
    let mut out = String::with_capacity(tex.len() + 16);
    writer.math(tex, 0, &mut out);
    if let Some(tag) = writer.tag.take() {
        out.push_str(&tag);
    }
    let out = match infix_fractions(&out) {
        Cow::Owned(rewritten) => rewritten,
        Cow::Borrowed(_) => out,
    };
    let tex = if writer.lines {
        // Lines broken at the top, as KaTeX breaks them: pulldown-latex takes
        // `\\` only inside an environment.
        Cow::Owned(format!(r"\begin{{gathered}}{out}\end{{gathered}}"))
    } else if out == tex {
        Cow::Borrowed(tex)
    } else {
        Cow::Owned(out)
    };
    Rewritten { tex, marked: writer.marked }
}

/// Writes into pulldown-latex's MathML (from `start` on) what the marks of
/// [`rewrite`] asked for: each mark colour becomes its style, each stand-in
/// character the character it stands for.
pub(super) fn finish(mathml: &mut String, start: usize) {
    let mut written = mathml[start..].to_string();
    for (mark, style) in MARKS {
        let colour = format!("color: rgb({} {} {})", mark.0, mark.1, mark.2);
        if written.contains(&colour) {
            written = written.replace(&colour, style);
        }
    }
    if written.contains(|c: char| SPECIAL_BASE <= c && c < stand_in(STAND_INS.len())) {
        let mut out = String::with_capacity(written.len());
        for c in written.chars() {
            let index = (c as u32).checked_sub(SPECIAL_BASE as u32).map(|i| i as usize);
            match index.and_then(|i| STAND_INS.get(i)) {
                Some('&') => out.push_str("&amp;"),
                Some(special) => out.push(*special),
                None => out.push(c),
            }
        }
        written = out;
    }
    mathml.truncate(start);
    mathml.push_str(&written);
}

/// Whether KaTeX's command `name` (without its backslash) is one this module
/// writes for pulldown-latex.
pub(super) fn rewrites(name: &str) -> bool {
    rule(name).is_some() || INFIX.iter().any(|(infix, _)| &infix[1..] == name) || TEXT_COMMANDS.contains(&name)
}

/// What a KaTeX command becomes.
#[derive(Debug, Clone, Copy)]
enum Rule {
    /// This TeX instead of the command: `\R` → `\mathbb{R}`.
    Alias(&'static str),
    /// The command takes `args` arguments, put into this TeX at `#1`, `#2`…:
    /// `\bra{x}` → `\mathinner{\langle{x}|}`.
    Macro(usize, &'static str),
    /// As `Macro`, after an optional argument `[…]` that is left out
    /// (`\smash[t]{x}`).
    SkipOptional(usize, &'static str),
    /// An extensible arrow (`\xmapsto{f}`, `\xLeftarrow[g]{f}`): this arrow
    /// with its labels above and below (it does not stretch to fit them).
    Arrow(&'static str),
    /// A box, a phantom or a size pulldown-latex cannot draw: its argument
    /// (none for a size, which holds to the end of the group) in this mark's
    /// colour, replaced by [`finish`].
    Mark(usize, usize),
    /// An operator name (`\argmax`): its name, with its limits below it in
    /// display math.
    Operator(&'static str),
    /// Text to leave out: `\allowbreak`, a hint to break lines.
    Nothing,
    /// `\mathchoice{display}{text}{script}{scriptscript}`: the first in
    /// display math, the second inline.
    Choice,
}

/// The mark colours (never an author's: nobody writes `#010001`), and the style each stands for.
const MARKS: &[((u8, u8, u8), &str)] = &[
    ((1, 0, 1), "border: 0.06em solid; padding: 0.1em 0.2em"),
    ((1, 0, 2), "visibility: hidden"),
    ((1, 0, 3), "font-size: 0.5em"),
    ((1, 0, 4), "font-size: 0.6em"),
    ((1, 0, 5), "font-size: 0.7em"),
    ((1, 0, 6), "font-size: 0.8em"),
    ((1, 0, 7), "font-size: 0.9em"),
    ((1, 0, 8), "font-size: 1em"),
    ((1, 0, 9), "font-size: 1.2em"),
    ((1, 0, 10), "font-size: 1.44em"),
    ((1, 0, 11), "font-size: 1.728em"),
    ((1, 0, 12), "font-size: 2.074em"),
    ((1, 0, 13), "font-size: 2.488em"),
];
const BOX: usize = 0;
const PHANTOM: usize = 1;

/// KaTeX's commands pulldown-latex lacks, by name, sorted (a test keeps it so).
const RULES: &[(&str, Rule)] = &[
    ("Bbb", Rule::Alias(r"\mathbb")),
    ("Bra", Rule::Macro(1, r"\left\langle #1\right|")),
    ("Complex", Rule::Alias(r"\mathbb{C}")),
    ("Dagger", Rule::Alias(r"\ddagger")),
    ("Darr", Rule::Alias(r"\Downarrow")),
    ("Harr", Rule::Alias(r"\Leftrightarrow")),
    ("Huge", Rule::Mark(0, 12)),
    ("KaTeX", Rule::Alias(r"\text{KaTeX}")),
    ("Ket", Rule::Macro(1, r"\left|#1\right\rangle")),
    ("LARGE", Rule::Mark(0, 10)),
    ("LaTeX", Rule::Alias(r"\text{LaTeX}")),
    ("Large", Rule::Mark(0, 9)),
    ("Larr", Rule::Alias(r"\Leftarrow")),
    ("Lrarr", Rule::Alias(r"\Leftrightarrow")),
    ("N", Rule::Alias(r"\mathbb{N}")),
    ("R", Rule::Alias(r"\mathbb{R}")),
    ("Rarr", Rule::Alias(r"\Rightarrow")),
    ("Reals", Rule::Alias(r"\mathbb{R}")),
    ("TeX", Rule::Alias(r"\text{TeX}")),
    ("Uarr", Rule::Alias(r"\Uparrow")),
    ("Z", Rule::Alias(r"\mathbb{Z}")),
    ("alef", Rule::Alias(r"\aleph")),
    ("alefsym", Rule::Alias(r"\aleph")),
    ("allowbreak", Rule::Nothing),
    ("arcctg", Rule::Alias(r"\operatorname{arcctg}")),
    ("arctg", Rule::Alias(r"\operatorname{arctg}")),
    ("argmax", Rule::Operator("arg max")),
    ("argmin", Rule::Operator("arg min")),
    ("bm", Rule::Alias(r"\boldsymbol")),
    ("bold", Rule::Alias(r"\mathbf")),
    ("boxed", Rule::Mark(1, BOX)),
    ("bra", Rule::Macro(1, r"\mathinner{\langle{#1}|}")),
    ("braket", Rule::Macro(1, r"\mathinner{\langle{#1}\rangle}")),
    ("bull", Rule::Alias(r"\bullet")),
    ("ch", Rule::Alias(r"\operatorname{ch}")),
    ("clubs", Rule::Alias(r"\clubsuit")),
    ("cnums", Rule::Alias(r"\mathbb{C}")),
    ("cosec", Rule::Alias(r"\operatorname{cosec}")),
    ("cotg", Rule::Alias(r"\operatorname{cotg}")),
    ("ctg", Rule::Alias(r"\operatorname{ctg}")),
    ("cth", Rule::Alias(r"\operatorname{cth}")),
    ("dArr", Rule::Alias(r"\Downarrow")),
    ("darr", Rule::Alias(r"\downarrow")),
    ("diamonds", Rule::Alias(r"\diamondsuit")),
    ("doublecup", Rule::Alias(r"\Cup")),
    ("edef", Rule::Alias(r"\def")),
    ("empty", Rule::Alias(r"\emptyset")),
    ("equalscolon", Rule::Alias(r"\mathrel{=\!:}")),
    ("equalscoloncolon", Rule::Alias(r"\mathrel{=\!::}")),
    ("exist", Rule::Alias(r"\exists")),
    ("fbox", Rule::Mark(1, BOX)),
    ("footnotesize", Rule::Mark(0, 5)),
    ("frak", Rule::Alias(r"\mathfrak")),
    ("gdef", Rule::Alias(r"\def")),
    ("global", Rule::Nothing),
    ("hArr", Rule::Alias(r"\Leftrightarrow")),
    ("harr", Rule::Alias(r"\leftrightarrow")),
    ("hbox", Rule::Alias(r"\text")),
    ("hearts", Rule::Alias(r"\heartsuit")),
    ("hphantom", Rule::Mark(1, PHANTOM)),
    ("huge", Rule::Mark(0, 11)),
    ("image", Rule::Alias(r"\Im")),
    ("infin", Rule::Alias(r"\infty")),
    ("injlim", Rule::Operator("inj lim")),
    ("ket", Rule::Macro(1, r"\mathinner{|{#1}\rangle}")),
    ("lArr", Rule::Alias(r"\Leftarrow")),
    ("lang", Rule::Alias(r"\langle")),
    ("large", Rule::Mark(0, 8)),
    ("larr", Rule::Alias(r"\leftarrow")),
    ("llbracket", Rule::Alias("⟦")),
    ("long", Rule::Nothing),
    ("lrArr", Rule::Alias(r"\Leftrightarrow")),
    ("lrarr", Rule::Alias(r"\leftrightarrow")),
    ("mathchoice", Rule::Choice),
    ("mathclap", Rule::Macro(1, "{#1}")),
    ("mathscr", Rule::Alias(r"\mathcal")),
    ("minuso", Rule::Alias(r"\mathbin{⦵}")),
    ("mod", Rule::Alias(r"\quad\operatorname{mod}\,\,")),
    ("natnums", Rule::Alias(r"\mathbb{N}")),
    ("newline", Rule::Alias(r"\\")),
    ("nobreak", Rule::Nothing),
    ("normalsize", Rule::Mark(0, 7)),
    ("overlinesegment", Rule::Alias(r"\overline")),
    ("phantom", Rule::Mark(1, PHANTOM)),
    ("plim", Rule::Operator("plim")),
    ("plusmn", Rule::Alias(r"\pm")),
    ("pmb", Rule::Alias(r"\boldsymbol")),
    ("pod", Rule::Macro(1, r"\quad(#1)")),
    ("projlim", Rule::Operator("proj lim")),
    ("rArr", Rule::Alias(r"\Rightarrow")),
    ("rang", Rule::Alias(r"\rangle")),
    ("rarr", Rule::Alias(r"\rightarrow")),
    ("real", Rule::Alias(r"\Re")),
    ("reals", Rule::Alias(r"\mathbb{R}")),
    ("rrbracket", Rule::Alias("⟧")),
    ("scriptsize", Rule::Mark(0, 4)),
    ("sdot", Rule::Alias(r"\cdot")),
    ("sh", Rule::Alias(r"\operatorname{sh}")),
    ("simcolon", Rule::Alias(r"\mathrel{\sim\!:}")),
    ("simcoloncolon", Rule::Alias(r"\mathrel{\sim\!::}")),
    ("sixptsize", Rule::Mark(0, 3)),
    ("small", Rule::Mark(0, 6)),
    ("smash", Rule::SkipOptional(1, "{#1}")),
    ("space", Rule::Alias(r"\ ")),
    ("spades", Rule::Alias(r"\spadesuit")),
    ("sub", Rule::Alias(r"\subset")),
    ("sube", Rule::Alias(r"\subseteq")),
    ("supe", Rule::Alias(r"\supseteq")),
    ("textmd", Rule::Alias(r"\textrm")),
    ("textnormal", Rule::Alias(r"\textrm")),
    ("textup", Rule::Alias(r"\textrm")),
    ("tg", Rule::Alias(r"\operatorname{tg}")),
    ("th", Rule::Alias(r"\operatorname{th}")),
    ("thetasym", Rule::Alias(r"\vartheta")),
    ("tiny", Rule::Mark(0, 2)),
    ("uArr", Rule::Alias(r"\Uparrow")),
    ("uarr", Rule::Alias(r"\uparrow")),
    ("underlinesegment", Rule::Alias(r"\underline")),
    ("utilde", Rule::Macro(1, r"\underset{\sim}{#1}")),
    ("varinjlim", Rule::Alias(r"\underrightarrow{\operatorname{lim}}")),
    ("varliminf", Rule::Alias(r"\underline{\operatorname{lim}}")),
    ("varlimsup", Rule::Alias(r"\overline{\operatorname{lim}}")),
    ("varprojlim", Rule::Alias(r"\underleftarrow{\operatorname{lim}}")),
    ("vcenter", Rule::Macro(1, "{#1}")),
    ("vphantom", Rule::Macro(1, "{}")),
    ("weierp", Rule::Alias(r"\wp")),
    ("xLeftarrow", Rule::Arrow(r"\Longleftarrow")),
    ("xLeftrightarrow", Rule::Arrow(r"\Longleftrightarrow")),
    ("xRightarrow", Rule::Arrow(r"\Longrightarrow")),
    ("xdef", Rule::Alias(r"\def")),
    ("xhookleftarrow", Rule::Arrow(r"\hookleftarrow")),
    ("xhookrightarrow", Rule::Arrow(r"\hookrightarrow")),
    ("xleftharpoondown", Rule::Arrow(r"\leftharpoondown")),
    ("xleftharpoonup", Rule::Arrow(r"\leftharpoonup")),
    ("xleftrightarrow", Rule::Arrow(r"\longleftrightarrow")),
    ("xleftrightharpoons", Rule::Arrow(r"\leftrightharpoons")),
    ("xlongequal", Rule::Arrow("=")),
    ("xmapsto", Rule::Arrow(r"\longmapsto")),
    ("xrightharpoondown", Rule::Arrow(r"\rightharpoondown")),
    ("xrightharpoonup", Rule::Arrow(r"\rightharpoonup")),
    ("xrightleftharpoons", Rule::Arrow(r"\rightleftharpoons")),
    ("xtofrom", Rule::Arrow(r"\rightleftarrows")),
    ("xtwoheadleftarrow", Rule::Arrow(r"\twoheadleftarrow")),
    ("xtwoheadrightarrow", Rule::Arrow(r"\twoheadrightarrow")),
];

fn rule(name: &str) -> Option<Rule> {
    RULES.binary_search_by(|(n, _)| (*n).cmp(name)).ok().map(|i| RULES[i].1)
}

/// Commands whose argument is text: in it, KaTeX's text-mode symbols and
/// accents are written as the characters they make (pulldown-latex shows a
/// text argument as it is written).
const TEXT_COMMANDS: &[&str] =
    &["hbox", "text", "textbf", "textit", "textmd", "textnormal", "textrm", "textsf", "texttt", "textup"];

/// KaTeX's text-mode symbols, and the character each makes.
const TEXT_SYMBOLS: &[(&str, char)] = &[
    ("AA", 'Å'),
    ("AE", 'Æ'),
    ("O", 'Ø'),
    ("OE", 'Œ'),
    ("P", '¶'),
    ("S", '§'),
    ("aa", 'å'),
    ("ae", 'æ'),
    ("i", 'ı'),
    ("j", 'ȷ'),
    ("o", 'ø'),
    ("oe", 'œ'),
    ("sect", '§'),
    ("ss", 'ß'),
    ("textasciicircum", '^'),
    ("textasciitilde", '~'),
    ("textbackslash", '\\'),
    ("textbar", '|'),
    ("textbardbl", '‖'),
    ("textbraceleft", '{'),
    ("textbraceright", '}'),
    ("textdagger", '†'),
    ("textdaggerdbl", '‡'),
    ("textdegree", '°'),
    ("textdollar", '$'),
    ("textellipsis", '…'),
    ("textemdash", '—'),
    ("textendash", '–'),
    ("textgreater", '>'),
    ("textless", '<'),
    ("textquotedblleft", '“'),
    ("textquotedblright", '”'),
    ("textquoteleft", '‘'),
    ("textquoteright", '’'),
    ("textregistered", '®'),
    ("textsterling", '£'),
    ("textunderscore", '_'),
];

/// KaTeX's text-mode accents, and the combining character each adds.
const TEXT_ACCENTS: &[(&str, char)] = &[
    ("\"", '\u{308}'),
    ("'", '\u{301}'),
    (".", '\u{307}'),
    ("=", '\u{304}'),
    ("H", '\u{30B}'),
    ("^", '\u{302}'),
    ("`", '\u{300}'),
    ("r", '\u{30A}'),
    ("u", '\u{306}'),
    ("v", '\u{30C}'),
    ("textcircled", '\u{20DD}'),
    ("~", '\u{303}'),
];

/// The characters KaTeX's text mode writes escaped (`\{`, `\%`).
const TEXT_ESCAPES: &[char] = &['{', '}', '$', '%', '#', '&', '_'];

/// Characters that mean something to TeX (or to pulldown-latex in text): in
/// text, each is written as a stand-in from the private use area, put back
/// by [`finish`].
const STAND_INS: &[char] = &['\\', '{', '}', '$', '%', '#', '&', '_', '^', '~'];
const SPECIAL_BASE: char = '\u{E000}';

fn stand_in(index: usize) -> char {
    char::from_u32(SPECIAL_BASE as u32 + index as u32).unwrap_or(SPECIAL_BASE)
}

/// The infix commands of plain TeX, as KaTeX takes them, and what each group
/// they split becomes: `{1 \over N}` → `{\frac{1}{N}}`. `\above` takes the
/// rule's thickness after it (`#`).
const INFIX: &[(&str, &str)] = &[
    (r"\over", r"\frac"),
    (r"\choose", r"\binom"),
    (r"\atop", r"\genfrac{}{}{0pt}{}"),
    (r"\brace", r"\genfrac\{\}{0pt}{}"),
    (r"\brack", r"\genfrac[]{0pt}{}"),
    (r"\above", r"\genfrac{}{}{#}{}"),
];

/// The names a formula defines for itself (`\def\R{…}`, `\newcommand{\R}`):
/// left to mean what it says.
fn defined(tex: &str) -> BTreeSet<&str> {
    let mut names = BTreeSet::new();
    for definer in
        [r"\def", r"\gdef", r"\edef", r"\xdef", r"\let", r"\newcommand", r"\renewcommand", r"\providecommand"]
    {
        for (at, _) in tex.match_indices(definer) {
            let rest = tex[at + definer.len()..].trim_start().trim_start_matches('{').trim_start();
            if let Some(name) = rest.strip_prefix('\\').map(command_name) {
                names.insert(name);
            }
        }
    }
    names
}

/// The name of the command at the start of `rest` (after its backslash):
/// letters, or one other character.
fn command_name(rest: &str) -> &str {
    let letters = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
    if letters > 0 { &rest[..letters] } else { rest.chars().next().map_or("", |c| &rest[..c.len_utf8()]) }
}

struct Writer<'t> {
    display: bool,
    defined: BTreeSet<&'t str>,
    marked: bool,
    /// A `\tag`, written after the formula.
    tag: Option<String>,
    /// The formula breaks lines at its top level.
    lines: bool,
}

impl Writer<'_> {
    /// Writes `tex` in math mode to `out`; `depth` is how deep in groups and
    /// environments it is.
    fn math(&mut self, tex: &str, depth: usize, out: &mut String) {
        let mut depth = depth;
        let mut at = 0;
        while let Some(found) = tex[at..].find(['\\', '{', '}']) {
            let start = at + found;
            out.push_str(&tex[at..start]);
            match tex.as_bytes()[start] {
                b'{' => {
                    depth += 1;
                    out.push('{');
                    at = start + 1;
                    continue;
                }
                b'}' => {
                    depth = depth.saturating_sub(1);
                    out.push('}');
                    at = start + 1;
                    continue;
                }
                _ => {}
            }
            let name = command_name(&tex[start + 1..]);
            let mut end = start + 1 + name.len();
            match name {
                "begin" | "left" => depth += 1,
                "end" | "right" => depth = depth.saturating_sub(1),
                "\\" | "cr" if depth == 0 => self.lines = true,
                "newline" if depth == 0 && !self.defined.contains(name) => self.lines = true,
                _ => {}
            }
            let starred = tex[end..].starts_with('*') && matches!(name, "operatorname" | "tag");
            if starred {
                end += 1;
            }
            let rest = &tex[end..];
            let used = if self.defined.contains(name) {
                None
            } else {
                match name {
                    "tag" => argument(rest).map(|(inside, len)| {
                        let label = self.text_of(inside);
                        let label = if starred { label } else { format!("({label})") };
                        self.tag = Some(format!(r"\qquad\text{{{label}}}"));
                        len
                    }),
                    "operatorname" => argument(rest).map(|(inside, len)| {
                        self.operator(&spaced(inside), starred, out);
                        len
                    }),
                    "verb" => verbatim(rest).map(|(inside, len)| {
                        out.push_str(r"\texttt{");
                        for c in inside.chars() {
                            self.push_text_char(if c == ' ' { '\u{A0}' } else { c }, out);
                        }
                        out.push('}');
                        len
                    }),
                    "char" => character(rest).map(|(c, len)| {
                        self.character(c, out);
                        len
                    }),
                    "newcommand" | "renewcommand" | "providecommand" => {
                        argument(rest).filter(|(inside, _)| inside.starts_with('\\')).map(|(inside, len)| {
                            // pulldown-latex wants the number of arguments, even none.
                            let counted = rest[len..].trim_start().starts_with('[');
                            out.push_str(&format!("\\{name}{{{inside}}}{}", if counted { "" } else { "[0]" }));
                            len
                        })
                    }
                    name if TEXT_COMMANDS.contains(&name) => argument(rest).map(|(inside, len)| {
                        let command = match rule(name) {
                            Some(Rule::Alias(alias)) => alias,
                            _ => &tex[start..end],
                        };
                        out.push_str(command);
                        out.push('{');
                        out.push_str(&self.text_of(inside));
                        out.push('}');
                        len
                    }),
                    name => rule(name).and_then(|rule| self.apply(name, rule, rest, depth, out)),
                }
            };
            match used {
                Some(len) => at = end + len,
                None => {
                    out.push_str(&tex[start..end]);
                    at = end;
                }
            }
        }
        out.push_str(&tex[at..]);
    }

    /// Writes what `rule` makes of the command `name` and its arguments at the
    /// start of `rest`; how much of `rest` they took, or None if they are not there.
    fn apply(&mut self, name: &str, rule: Rule, rest: &str, depth: usize, out: &mut String) -> Option<usize> {
        let rewritten = |writer: &mut Self, inside: &str| {
            let mut arg = String::new();
            writer.math(inside, depth + 1, &mut arg);
            arg
        };
        match rule {
            Rule::Nothing => {
                out.push(' ');
                Some(0)
            }
            Rule::Choice => {
                let mut len = 0;
                let mut chosen = String::new();
                for i in 0..4 {
                    let (inside, used) = argument(&rest[len..])?;
                    if i == usize::from(!self.display) {
                        chosen = rewritten(self, inside);
                    }
                    len += used;
                }
                out.push('{');
                out.push_str(&chosen);
                out.push('}');
                Some(len)
            }
            Rule::Alias(alias) => {
                // What follows a command's name is no letter: `\lang x` → `\langle x`.
                out.push_str(alias);
                Some(0)
            }
            Rule::Operator(text) => {
                self.operator(text, true, out);
                Some(0)
            }
            Rule::Mark(0, mark) => {
                self.marked = true;
                out.push_str(&mark_colour(r"\color", mark));
                Some(0)
            }
            Rule::Mark(_, mark) => {
                let (inside, len) = argument(rest)?;
                let inside = if name == "fbox" {
                    format!(r"\text{{{}}}", self.text_of(inside))
                } else {
                    rewritten(self, inside)
                };
                self.marked = true;
                out.push_str(&mark_colour(r"\textcolor", mark));
                out.push('{');
                out.push_str(&inside);
                out.push('}');
                Some(len)
            }
            Rule::Macro(count, template) | Rule::SkipOptional(count, template) => {
                let mut len = 0;
                if matches!(rule, Rule::SkipOptional(..)) {
                    len = optional(rest).map_or(0, |(_, used)| used);
                }
                let mut args = Vec::new();
                for _ in 0..count {
                    let (inside, used) = argument(&rest[len..])?;
                    args.push(rewritten(self, inside));
                    len += used;
                }
                out.push_str(&fill(template, &args));
                Some(len)
            }
            Rule::Arrow(arrow) => {
                let below = optional(rest);
                let len = below.map_or(0, |(_, used)| used);
                let (above, used) = argument(&rest[len..])?;
                let above = rewritten(self, above);
                match below {
                    Some((below, _)) => {
                        let below = rewritten(self, below);
                        out.push_str(&format!(r"\mathrel{{\underset{{{below}}}{{\overset{{{above}}}{{{arrow}}}}}}}"));
                    }
                    None => out.push_str(&format!(r"\mathrel{{\overset{{{above}}}{{{arrow}}}}}")),
                }
                Some(len + used)
            }
        }
    }

    /// An operator's name, upright, its limits below it in display math as
    /// KaTeX places them (`\operatorname*`, `\argmax`).
    fn operator(&self, name: &str, limits: bool, out: &mut String) {
        out.push_str(r"\operatorname{");
        out.push_str(name);
        out.push('}');
        if limits && self.display {
            out.push_str(r"\limits");
        }
    }

    /// A character named by its code (`\char"263a`), where TeX would read it.
    fn character(&mut self, c: char, out: &mut String) {
        match STAND_INS.iter().position(|special| *special == c) {
            Some(index) => {
                self.marked = true;
                out.push_str(r"\text{");
                out.push(stand_in(index));
                out.push('}');
            }
            None => out.push(c),
        }
    }

    /// The text argument `inside` with KaTeX's text-mode commands written as
    /// the characters they make: `\'e` → `é`, `\ae` → `æ`, `\{` → `{`.
    fn text_of(&mut self, inside: &str) -> String {
        let mut out = String::with_capacity(inside.len());
        let mut rest = inside;
        while let Some(at) = rest.find(['\\', '~']) {
            out.push_str(&rest[..at]);
            if rest[at..].starts_with('~') {
                out.push('\u{A0}');
                rest = &rest[at + 1..];
                continue;
            }
            let after = &rest[at + 1..];
            let name = command_name(after);
            let mut next = &after[name.len()..];
            if let Some((_, accent)) = TEXT_ACCENTS.iter().find(|(n, _)| *n == name) {
                match argument(next) {
                    Some((base, len)) => {
                        let base = self.text_of(base);
                        let mut chars = base.chars();
                        out.extend(chars.next());
                        out.push(*accent);
                        out.extend(chars);
                        next = &next[len..];
                    }
                    None => out.push_str(&rest[at..at + 1 + name.len()]),
                }
            } else if let Some((_, symbol)) = TEXT_SYMBOLS.iter().find(|(n, _)| *n == name) {
                self.push_text_char(*symbol, &mut out);
                // The space after a command's name ends it, and is not text.
                if name.ends_with(|c: char| c.is_ascii_alphabetic()) {
                    next = next.strip_prefix(' ').unwrap_or(next);
                }
            } else if let Some(escaped) = TEXT_ESCAPES.iter().find(|c| name.starts_with(**c) && name.len() == 1) {
                self.push_text_char(*escaped, &mut out);
            } else if name == " " {
                out.push(' ');
            } else {
                out.push_str(&rest[at..at + 1 + name.len()]);
            }
            rest = next;
        }
        out.push_str(rest);
        out
    }

    fn push_text_char(&mut self, c: char, out: &mut String) {
        match STAND_INS.iter().position(|special| *special == c) {
            Some(index) => {
                self.marked = true;
                out.push(stand_in(index));
            }
            None => out.push(c),
        }
    }
}

fn mark_colour(command: &str, mark: usize) -> String {
    let (r, g, b) = MARKS[mark].0;
    format!("{command}{{#{r:02x}{g:02x}{b:02x}}}")
}

/// `template` with `#1`, `#2`… replaced by `args`.
fn fill(template: &str, args: &[String]) -> String {
    let mut out = String::with_capacity(template.len() + args.iter().map(String::len).sum::<usize>());
    let mut chars = template.chars();
    while let Some(c) = chars.next() {
        match c {
            '#' => {
                let n = chars.next().and_then(|d| d.to_digit(10)).unwrap_or(1) as usize;
                out.push_str(args.get(n - 1).map_or("", String::as_str));
            }
            c => out.push(c),
        }
    }
    out
}

/// An operator name's inside with TeX's spaces (`arg\,max`) as spaces:
/// pulldown-latex writes the name as it is.
fn spaced(name: &str) -> String {
    let mut out = name.to_string();
    for space in [r"\,", r"\;", r"\:", r"\!", r"\ "] {
        out = out.replace(space, " ");
    }
    out
}

/// The argument at the start of `text` (after spaces): a group's inside, or
/// one command or character; and how many bytes it took.
fn argument(text: &str) -> Option<(&str, usize)> {
    let skipped = text.len() - text.trim_start().len();
    let rest = &text[skipped..];
    let first = rest.chars().next()?;
    match first {
        '{' => {
            let end = matching(rest, '{', '}')?;
            Some((&rest[1..end], skipped + end + 1))
        }
        '}' => None,
        '\\' => {
            let len = 1 + command_name(&rest[1..]).len();
            Some((&rest[..len], skipped + len))
        }
        c => Some((&rest[..c.len_utf8()], skipped + c.len_utf8())),
    }
}

/// An optional argument `[…]` at the start of `text` (after spaces).
fn optional(text: &str) -> Option<(&str, usize)> {
    let skipped = text.len() - text.trim_start().len();
    let rest = text[skipped..].strip_prefix('[')?;
    let mut depth = 0usize;
    for (i, c) in rest.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ']' if depth == 0 => return Some((&rest[..i], skipped + i + 2)),
            _ => {}
        }
    }
    None
}

/// `\verb`'s text: from the character after it to the next of the same
/// (`\verb!x^2!`), and how many bytes it took.
fn verbatim(text: &str) -> Option<(&str, usize)> {
    let delimiter = text.chars().next().filter(|c| !c.is_alphabetic() && !c.is_whitespace() && *c != '*')?;
    let inside = &text[delimiter.len_utf8()..];
    let end = inside.find(delimiter)?;
    Some((&inside[..end], delimiter.len_utf8() * 2 + end))
}

/// `\char`'s number at the start of `text`: `"263a` (hexadecimal), `'101`
/// (octal) or `65`; as a character, and how many bytes it took.
fn character(text: &str) -> Option<(char, usize)> {
    let skipped = text.len() - text.trim_start().len();
    let rest = &text[skipped..];
    let (radix, digits_at) = match rest.chars().next()? {
        '"' => (16, 1),
        '\'' => (8, 1),
        _ => (10, 0),
    };
    let digits = &rest[digits_at..];
    let len = digits.find(|c: char| !c.is_digit(radix)).unwrap_or(digits.len());
    let code = u32::from_str_radix(&digits[..len], radix).ok()?;
    Some((char::from_u32(code)?, skipped + digits_at + len))
}

/// The `close` that closes the `open` at the start of `text`, skipping escaped ones.
fn matching(text: &str, open: char, close: char) -> Option<usize> {
    let mut depth = 0usize;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        if c == '\\' {
            escaped = true;
        } else if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// `tex` with each group (braces, or the whole formula) that holds an infix
/// fraction (`\over`, `\choose`, `\atop`, `\brace`, `\brack`, `\above`) at
/// its own level written as the command pulldown-latex knows: the part
/// before it over the part after.
fn infix_fractions(tex: &str) -> Cow<'_, str> {
    if !INFIX.iter().any(|(infix, _)| has_command(tex, infix)) {
        return Cow::Borrowed(tex);
    }
    Cow::Owned(rewrite_group(tex))
}

/// Whether `tex` holds the command `name` (not a longer one: `\overline`).
fn has_command(tex: &str, name: &str) -> bool {
    tex.match_indices(name).any(|(at, _)| !tex[at + name.len()..].starts_with(|c: char| c.is_ascii_alphabetic()))
}

/// One group's inside, its subgroups rewritten first.
fn rewrite_group(inside: &str) -> String {
    let bytes = inside.as_bytes();
    let mut out = String::with_capacity(inside.len() + 16);
    // Where, in `out`, this group's own infix stands: (its position, the fraction).
    let mut split: Option<(usize, String)> = None;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                let len = 1 + command_name(&inside[i + 1..]).len();
                let command = &inside[i..i + len];
                match INFIX.iter().find(|(infix, _)| *infix == command) {
                    Some((infix, frac)) if split.is_none() => {
                        let mut frac = frac.to_string();
                        if *infix == r"\above" {
                            let (thickness, used) = dimension(&inside[i + len..]);
                            frac = frac.replace('#', thickness);
                            i += used;
                        }
                        split = Some((out.len(), frac));
                    }
                    _ => out.push_str(command),
                }
                i += len;
            }
            b'{' => match matching(&inside[i..], '{', '}') {
                Some(len) => {
                    out.push('{');
                    out.push_str(&rewrite_group(&inside[i + 1..i + len]));
                    out.push('}');
                    i += len + 1;
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

/// The dimension at the start of `text` (`{2pt}`, ` 1.5pt`), and how many bytes it took.
fn dimension(text: &str) -> (&str, usize) {
    if let Some((inside, len)) = argument(text).filter(|_| text.trim_start().starts_with('{')) {
        return (inside, len);
    }
    let skipped = text.len() - text.trim_start().len();
    let rest = &text[skipped..];
    let number = rest.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-')).unwrap_or(rest.len());
    let unit = rest[number..].find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len() - number).min(2);
    (&rest[..number + unit], skipped + number + unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(tex: &str) -> String {
        rewrite(tex, true).tex.into_owned()
    }

    #[test]
    fn the_rules_are_sorted_for_the_search() {
        assert!(RULES.windows(2).all(|w| w[0].0 < w[1].0), "RULES must stay sorted by name");
    }

    #[test]
    fn aliases_macros_and_operators() {
        assert_eq!(rewritten(r"x \in \R^2"), r"x \in \mathbb{R}^2");
        assert_eq!(rewritten(r"\lang x \rang"), r"\langle x \rangle");
        assert_eq!(rewritten(r"\bra{\psi} \ket\phi"), r"\mathinner{\langle{\psi}|} \mathinner{|{\phi}\rangle}");
        assert_eq!(rewritten(r"\argmax_x f"), r"\operatorname{arg max}\limits_x f");
        assert_eq!(rewrite(r"\argmax_x f", false).tex, r"\operatorname{arg max}_x f", "limits beside it inline");
        assert_eq!(rewritten(r"\operatorname*{arg\,min}_x"), r"\operatorname{arg min}\limits_x");
        assert_eq!(
            rewritten(r"\xrightarrow{f} \xLeftarrow[g]{f}"),
            r"\xrightarrow{f} \mathrel{\underset{g}{\overset{f}{\Longleftarrow}}}"
        );
        assert_eq!(
            rewritten(r"\xmapsto{\R}"),
            r"\mathrel{\overset{\mathbb{R}}{\longmapsto}}",
            "arguments are rewritten too"
        );
        assert_eq!(
            rewritten(r"\overline{x} \frac{a}{b}"),
            r"\overline{x} \frac{a}{b}",
            "what pulldown-latex knows is left alone"
        );
    }

    #[test]
    fn a_formula_s_own_definitions_win() {
        assert_eq!(rewritten(r"\def\R{\mathcal{R}} \R"), r"\def\R{\mathcal{R}} \R");
        assert_eq!(rewritten(r"\newcommand\ok{\checkmark}\ok"), r"\newcommand{\ok}[0]{\checkmark}\ok");
        assert_eq!(rewritten(r"\newcommand{\f}[2]{#1+#2}"), r"\newcommand{\f}[2]{#1+#2}");
        assert_eq!(rewritten(r"\gdef\a{x}\global\def\b{y}"), r"\def\a{x} \def\b{y}");
    }

    #[test]
    fn text_mode_symbols_and_accents_are_characters() {
        assert_eq!(rewritten(r"\text{caf\'e \ae\ \aa~x}"), "\\text{cafe\u{301} æ å\u{a0}x}");
        assert_eq!(rewritten(r#"\text{\"{o}\v c}"#), "\\text{o\u{308}c\u{30c}}");
        let braces = rewrite(r"\text{\{a\} \textbackslash}", true);
        assert!(braces.marked && !braces.tex.contains(r"\{"), "{}", braces.tex);
        let mut mathml = format!("<mtext>{}</mtext>", &braces.tex[6..braces.tex.len() - 1]);
        finish(&mut mathml, 0);
        assert_eq!(mathml, r"<mtext>{a} \</mtext>");
    }

    #[test]
    fn marks_become_styles() {
        let boxed = rewrite(r"\boxed{x}", true);
        assert_eq!((boxed.tex.as_ref(), boxed.marked), (r"\textcolor{#010001}{x}", true));
        let mut mathml = String::from(r#"<mi>a</mi><mrow style="color: rgb(1 0 1)"><mi>x</mi></mrow>"#);
        finish(&mut mathml, "<mi>a</mi>".len());
        assert_eq!(mathml, r#"<mi>a</mi><mrow style="border: 0.06em solid; padding: 0.1em 0.2em"><mi>x</mi></mrow>"#);
        assert_eq!(rewritten(r"{\large x}"), r"{\color{#010009} x}");
    }

    #[test]
    fn lines_tags_and_characters() {
        assert_eq!(rewritten(r"a \\ b"), r"\begin{gathered}a \\ b\end{gathered}");
        assert_eq!(rewritten(r"\begin{matrix} a \\ b \end{matrix}"), r"\begin{matrix} a \\ b \end{matrix}");
        assert_eq!(rewritten(r"\tag{1} a = b"), r" a = b\qquad\text{(1)}");
        assert_eq!(rewritten(r#"\char"263a"#), "☺");
    }

    #[test]
    fn infix_fractions_of_plain_tex_are_fractions() {
        assert_eq!(infix_fractions(r"{1 \over N}\sum_i x_i"), r"{\frac{1}{N}}\sum_i x_i");
        assert_eq!(infix_fractions(r"a+b \over c"), r"\frac{a+b}{c}");
        assert_eq!(infix_fractions(r"{n \choose k}"), r"{\binom{n}{k}}");
        assert_eq!(infix_fractions(r"{ {a \over b} \over c}"), r"{\frac{{\frac{a}{b}}}{c}}");
        assert_eq!(infix_fractions(r"{n \brack k}"), r"{\genfrac[]{0pt}{}{n}{k}}");
        assert_eq!(infix_fractions(r"{a \above{2pt} b}"), r"{\genfrac{}{}{2pt}{}{a}{b}}");
        assert_eq!(infix_fractions(r"{a \above 1.5pt b}"), r"{\genfrac{}{}{1.5pt}{}{a}{b}}");
        assert_eq!(infix_fractions(r"\overline{x} + \{ y \}"), r"\overline{x} + \{ y \}", "left alone");
    }
}
