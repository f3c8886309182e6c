//! The spelling of a post's prose: every word of the whole text that its
//! language's Hunspell dictionaries do not know (code, math, raw HTML,
//! addresses and the front matter left out), with what to write instead.
//! The words are asked of the system's `hunspell` program in its pipe mode
//! (`hunspell -a`, the ispell protocol Emacs and Vim's checkers speak), with
//! the system's dictionaries (`hunspell-ko`, `hunspell-en-us`): Korean needs
//! Hunspell's own affix and compound rules. A word with Hangul is checked in
//! Korean, any other in the post's language, and Latin words in a Korean post
//! in English (the Korean dictionary takes every word without Hangul).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::ops::Range;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};

use pulldown_cmark::{Event, LinkType, Parser, Tag, TagEnd};
use serde::Serialize;
use unicode_segmentation::UnicodeSegmentation;

use crate::front_matter::split::split;
use crate::markdown::parser_options;

/// The longest word asked about (Hunspell's own limit is 100 bytes).
const MAX_WORD_BYTES: usize = 100;

/// A word the dictionaries do not know, where the editor counts: in UTF-16
/// code units from the start of the post's text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Misspelled {
    pub from: usize,
    pub to: usize,
    pub word: String,
}

/// The dictionaries a post in one language is checked with.
pub struct Spelling {
    /// The post's language's (None when the system has none for it).
    own: Option<Arc<Dictionary>>,
    /// Korean, for words with Hangul.
    korean: Option<Arc<Dictionary>>,
    /// English, for Latin words in a Korean post.
    english: Option<Arc<Dictionary>>,
}

impl Spelling {
    /// The dictionaries for a post in `lang` (`ko`, `en-US`, `de_DE`, …),
    /// each read once per run.
    pub fn for_language(lang: &str) -> Spelling {
        let korean = dictionary("ko_KR");
        let english = dictionary("en_US");
        let own = match language(lang).as_str() {
            "ko" => None,
            "en" => dictionary(&locale(lang, "US")).or_else(|| english.clone()),
            other => dictionary(&locale(lang, &other.to_uppercase())),
        };
        let english = if language(lang) == "ko" { english } else { None };
        Spelling { own, korean, english }
    }

    /// The dictionary a word is checked in, if any.
    fn for_word(&self, word: &str) -> Option<&Dictionary> {
        if word.chars().any(is_hangul) {
            return self.korean.as_deref();
        }
        self.own.as_deref().or(self.english.as_deref())
    }

    /// Every word of the prose of `text` (a whole post, front matter and all)
    /// that its dictionary does not know, in order.
    pub fn misspelled(&self, text: &str) -> Vec<Misspelled> {
        let words: Vec<(usize, &str, &Dictionary)> = prose(text)
            .into_iter()
            .flat_map(|range| {
                let start = range.start;
                text[range].split_word_bound_indices().map(move |(at, word)| (start + at, word))
            })
            .filter(|(_, word)| is_checked_word(word))
            .filter_map(|(at, word)| Some((at, word, self.for_word(word)?)))
            .collect();
        let mut unknown = vec![false; words.len()];
        for dictionary in [&self.own, &self.korean, &self.english].into_iter().flatten() {
            let (places, asked): (Vec<usize>, Vec<&str>) = words
                .iter()
                .enumerate()
                .filter(|(_, (_, _, d))| std::ptr::eq(*d, dictionary.as_ref()))
                .map(|(n, (_, word, _))| (n, *word))
                .unzip();
            for (place, known) in places.into_iter().zip(dictionary.knows(&asked)) {
                unknown[place] = !known;
            }
        }
        let mut counter = Utf16::new(text);
        words
            .iter()
            .zip(unknown)
            .filter(|(_, unknown)| *unknown)
            .map(|((at, word, _), _)| {
                let (from, to) = (counter.at(*at), counter.at(at + word.len()));
                Misspelled { from, to, word: word.to_string() }
            })
            .collect()
    }

    /// What the author may have meant by `word`, best first (at most
    /// `most`).
    pub fn suggestions(&self, word: &str, most: usize) -> Vec<String> {
        let Some(dictionary) = self.for_word(word) else { return Vec::new() };
        let mut suggestions = dictionary.suggest(word);
        suggestions.truncate(most);
        suggestions
    }
}

/// `en` of `en-US`, lower case.
fn language(lang: &str) -> String {
    lang.split(['-', '_']).next().unwrap_or_default().to_ascii_lowercase()
}

/// The dictionary name of `lang` (`en-gb` → `en_GB`), with `region` when it
/// names none.
fn locale(lang: &str, region: &str) -> String {
    let mut parts = lang.split(['-', '_']);
    let language = parts.next().unwrap_or_default().to_ascii_lowercase();
    let region = parts.next().map_or_else(|| region.to_string(), str::to_ascii_uppercase);
    format!("{language}_{region}")
}

fn is_hangul(c: char) -> bool {
    matches!(c, '\u{AC00}'..='\u{D7A3}' | '\u{1100}'..='\u{11FF}' | '\u{3130}'..='\u{318F}')
}

/// A word worth checking: letters (an apostrophe inside), no digits, no
/// underscore (an identifier), more than one letter.
fn is_checked_word(word: &str) -> bool {
    word.chars().count() > 1
        && word.chars().all(|c| c.is_alphabetic() || c == '\'' || c == '’')
        && word.chars().any(char::is_alphabetic)
        && word.len() <= MAX_WORD_BYTES
}

/// The ranges of `text` that are prose: the body's text, outside code
/// blocks, inline code, math, raw HTML, autolinks and web addresses.
fn prose(text: &str) -> Vec<Range<usize>> {
    let Ok(parts) = split(text) else { return Vec::new() };
    let body = &text[parts.body.clone()];
    let mut ranges = Vec::new();
    let mut not_prose = 0usize;
    for (event, range) in Parser::new_ext(body, parser_options()).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(_) | Tag::HtmlBlock | Tag::MetadataBlock(_)) => not_prose += 1,
            Event::Start(Tag::Link { link_type: LinkType::Autolink | LinkType::Email, .. }) => not_prose += 1,
            Event::End(TagEnd::CodeBlock | TagEnd::HtmlBlock | TagEnd::MetadataBlock(_)) => {
                not_prose = not_prose.saturating_sub(1)
            }
            Event::End(TagEnd::Link) if not_prose > 0 => not_prose -= 1,
            Event::Text(_) if not_prose == 0 => {
                let start = parts.body.start + range.start;
                without_addresses(text, start..parts.body.start + range.end, &mut ranges);
            }
            _ => {}
        }
    }
    ranges
}

/// `range` of `text` less the web addresses written in it as plain text.
fn without_addresses(text: &str, range: Range<usize>, ranges: &mut Vec<Range<usize>>) {
    let mut start = range.start;
    let mut at = range.start;
    for word in text[range.clone()].split_inclusive(char::is_whitespace) {
        let bare = word.trim_end();
        if bare.contains("://") || bare.starts_with("www.") || bare.contains('@') && bare.contains('.') {
            if at > start {
                ranges.push(start..at);
            }
            start = at + word.len();
        }
        at += word.len();
    }
    if range.end > start {
        ranges.push(start..range.end);
    }
}

/// Byte offsets to UTF-16 offsets, counted forward once.
struct Utf16<'a> {
    text: &'a str,
    byte: usize,
    unit: usize,
}

impl<'a> Utf16<'a> {
    fn new(text: &'a str) -> Self {
        Utf16 { text, byte: 0, unit: 0 }
    }

    /// The UTF-16 offset of byte `byte` (never before the last one asked).
    fn at(&mut self, byte: usize) -> usize {
        if byte < self.byte {
            self.byte = 0;
            self.unit = 0;
        }
        self.unit += self.text[self.byte..byte].encode_utf16().count();
        self.byte = byte;
        self.unit
    }
}

/// The system's dictionary `name` (`en_US`), its `hunspell` started once
/// per run; None when the program or the dictionary is not there.
fn dictionary(name: &str) -> Option<Arc<Dictionary>> {
    type Started = Mutex<Vec<(String, Option<Arc<Dictionary>>)>>;
    static STARTED: OnceLock<Started> = OnceLock::new();
    let started = STARTED.get_or_init(Started::default);
    let mut started = started.lock().ok()?;
    if let Some((_, found)) = started.iter().find(|(n, _)| n == name) {
        return found.clone();
    }
    let found = has_dictionary(name).then(|| Arc::new(Dictionary::new(name)));
    started.push((name.to_string(), found.clone()));
    found
}

/// Where Hunspell looks for dictionaries: the folders in `DICPATH`, then the
/// system's (hunspell's `src/tools/hunspell.cxx`: `LIBDIR`, `USEROOODIR`).
fn search_path() -> Vec<PathBuf> {
    let mut folders: Vec<PathBuf> =
        std::env::var_os("DICPATH").map(|path| std::env::split_paths(&path).collect()).unwrap_or_default();
    folders.extend(["/usr/share/hunspell", "/usr/share/myspell", "/usr/share/myspell/dicts"].map(PathBuf::from));
    folders
}

fn has_dictionary(name: &str) -> bool {
    search_path()
        .iter()
        .any(|folder| folder.join(format!("{name}.aff")).is_file() && folder.join(format!("{name}.dic")).is_file())
}

/// One dictionary, asked through its own `hunspell -a`, started when first
/// asked and again if it ends.
pub struct Dictionary {
    name: String,
    pipe: Mutex<Option<Pipe>>,
    /// What each word asked was found to be: a post is checked again after
    /// each pause in typing, and Hunspell takes milliseconds over every
    /// unknown word (it finds suggestions for each).
    answered: Mutex<HashMap<String, bool>>,
}

/// Words remembered per dictionary before the memory starts again.
const MAX_ANSWERED: usize = 200_000;

struct Pipe {
    child: Child,
    to: ChildStdin,
    from: BufReader<ChildStdout>,
}

impl Drop for Pipe {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What `hunspell -a` answered for one word.
enum Answer {
    Known,
    Unknown(Vec<String>),
}

impl Dictionary {
    fn new(name: &str) -> Dictionary {
        Dictionary { name: name.to_string(), pipe: Mutex::default(), answered: Mutex::default() }
    }

    /// Whether each of `words` is known, in order (all are, when `hunspell`
    /// cannot be asked: spelling is a help, not a promise).
    fn knows(&self, words: &[&str]) -> Vec<bool> {
        let Ok(mut answered) = self.answered.lock() else { return vec![true; words.len()] };
        let mut new: Vec<&str> = words.iter().copied().filter(|word| !answered.contains_key(*word)).collect();
        new.sort_unstable();
        new.dedup();
        if let Some(answers) = self.ask(&new) {
            if answered.len() + new.len() > MAX_ANSWERED {
                answered.clear();
            }
            for (word, answer) in new.iter().zip(answers) {
                answered.insert(word.to_string(), matches!(answer, Answer::Known));
            }
        }
        words.iter().map(|word| answered.get(*word).copied().unwrap_or(true)).collect()
    }

    fn suggest(&self, word: &str) -> Vec<String> {
        match self.ask(&[word]).and_then(|mut answers| answers.pop()) {
            Some(Answer::Unknown(suggestions)) => suggestions,
            _ => Vec::new(),
        }
    }

    fn ask(&self, words: &[&str]) -> Option<Vec<Answer>> {
        if words.is_empty() {
            return Some(Vec::new());
        }
        let mut pipe = self.pipe.lock().ok()?;
        if pipe.is_none() {
            *pipe = self.start();
        }
        let answers = pipe.as_mut().and_then(|pipe| pipe.ask(words));
        if answers.is_none() {
            // A pipe that failed once is not trusted again: the next ask starts another.
            *pipe = None;
        }
        answers
    }

    fn start(&self) -> Option<Pipe> {
        let dicpath = std::env::join_paths(search_path()).ok()?;
        let mut child = Command::new("hunspell")
            .args(["-a", "-i", "utf-8", "-d", &self.name])
            .env("DICPATH", dicpath)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let (to, from) = (child.stdin.take()?, child.stdout.take()?);
        let mut pipe = Pipe { child, to, from: BufReader::new(from) };
        // Its first line names it (`@(#) International Ispell Version …`).
        let mut banner = String::new();
        (pipe.from.read_line(&mut banner).ok()? > 0 && banner.starts_with('@')).then_some(pipe)
    }
}

impl Pipe {
    /// Asks one word a line, each after `^` (a line that starts so is text,
    /// never a command), a hundred at a time so neither side's pipe fills.
    /// Hunspell answers each word of a line on its own line, then an empty one.
    fn ask(&mut self, words: &[&str]) -> Option<Vec<Answer>> {
        let mut answers = Vec::with_capacity(words.len());
        for batch in words.chunks(100) {
            let mut lines = String::new();
            for word in batch {
                lines.push('^');
                lines.push_str(word);
                lines.push('\n');
            }
            self.to.write_all(lines.as_bytes()).ok()?;
            self.to.flush().ok()?;
            for _ in batch {
                let mut word = Vec::new();
                loop {
                    let mut line = String::new();
                    if self.from.read_line(&mut line).ok()? == 0 {
                        return None;
                    }
                    let line = line.trim_end_matches(['\n', '\r']);
                    if line.is_empty() {
                        break;
                    }
                    word.push(answer(line));
                }
                // A word Hunspell took as several is known when each part is.
                let mut known = true;
                let mut suggestions = Vec::new();
                for answer in word {
                    if let Answer::Unknown(more) = answer {
                        known = false;
                        suggestions.extend(more);
                    }
                }
                answers.push(if known { Answer::Known } else { Answer::Unknown(suggestions) });
            }
        }
        Some(answers)
    }
}

/// One line of the ispell protocol: `*`, `+ ROOT`, `-` (known), `& WORD N
/// OFFSET: A, B` (unknown, with suggestions), `# WORD OFFSET` (unknown).
fn answer(line: &str) -> Answer {
    match line.as_bytes().first() {
        Some(b'&') => {
            let suggestions = line.split_once(": ").map(|(_, list)| list.split(", ").map(str::to_string).collect());
            Answer::Unknown(suggestions.unwrap_or_default())
        }
        Some(b'#') => Answer::Unknown(Vec::new()),
        _ => Answer::Known,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dictionary of a few words, as Hunspell's files spell them, asked
    /// through the real `hunspell` (`make test` installs it).
    fn small() -> Spelling {
        static FOLDER: OnceLock<tempfile::TempDir> = OnceLock::new();
        let folder = FOLDER.get_or_init(|| {
            let folder = tempfile::tempdir().unwrap();
            let aff = "SET UTF-8\nTRY esianrtolcdugmphbyfvkwz\nSFX S Y 1\nSFX S 0 s .\n";
            let dic = "8\nhello\nworld/S\npost\nwrite\nthe\nand\nsee\nor\n";
            std::fs::write(folder.path().join("small.aff"), aff).unwrap();
            std::fs::write(folder.path().join("small.dic"), dic).unwrap();
            folder
        });
        let name = folder.path().join("small").to_string_lossy().into_owned();
        let english = Arc::new(Dictionary::new(&name));
        Spelling { own: Some(english), korean: None, english: None }
    }

    fn words(spelling: &Spelling, text: &str) -> Vec<String> {
        spelling.misspelled(text).into_iter().map(|m| m.word).collect()
    }

    #[test]
    fn every_word_of_the_prose_is_checked_and_nothing_else() {
        let text = "---\ntitle: Helo wrld\n---\nHello worlds, the posst.\n\n\
                    ```rust\nlet wrng = 1;\n```\n\nWrite `cde` and $mth$ and <b>hello</b>.\n\n\
                    See https://exampel.com/pth or <https://autolnk.org> [the lnk](https://x.org/abc).\n";
        assert_eq!(words(&small(), text), ["posst", "lnk"]);
    }

    #[test]
    fn places_are_counted_as_the_editor_counts_them() {
        // "글 " is two UTF-16 units and three bytes per syllable.
        let text = "글 😀 posst\n";
        let found = small().misspelled(text);
        assert_eq!(found.len(), 1);
        let units: Vec<u16> = text.encode_utf16().collect();
        let word = String::from_utf16(&units[found[0].from..found[0].to]).unwrap();
        assert_eq!(word, "posst");
    }

    #[test]
    fn hangul_words_go_to_the_korean_dictionary_only() {
        // No Korean dictionary here: Korean words are left alone.
        assert_eq!(words(&small(), "안녕하세요 worlds 세상\n"), Vec::<String>::new());
    }

    #[test]
    fn identifiers_and_numbers_are_not_words() {
        assert_eq!(words(&small(), "snake_case x86 a v2 don't\n"), ["don't"]);
    }

    #[test]
    fn suggestions_come_from_the_word_s_dictionary() {
        assert!(small().suggestions("wrold", 5).contains(&"world".to_string()));
    }

    #[test]
    fn a_word_without_suggestions_is_unknown_too() {
        assert_eq!(words(&small(), "the xqzvkj post\n"), ["xqzvkj"]);
    }

    /// The system's Korean and English dictionaries (`make test` installs
    /// them): Hunspell's Korean rules take a verb's endings, and English
    /// words in a Korean post are checked in English.
    #[test]
    fn a_korean_post_is_checked_in_korean_and_english() {
        let spelling = Spelling::for_language("ko-KR");
        let text = "---\ntitle: 시험\n---\n맞춤법 시험이 됬다. 안녕하세요, 되었다 했다 그리고 wrld hello.\n";
        assert_eq!(words(&spelling, text), ["됬다", "wrld"]);
        assert!(spelling.suggestions("됬다", 5).contains(&"됐다".to_string()));
    }

    #[test]
    fn dictionary_names_follow_the_language() {
        assert_eq!(locale("en", "US"), "en_US");
        assert_eq!(locale("en-gb", "US"), "en_GB");
        assert_eq!(language("ko-KR"), "ko");
    }
}
