//! Changing or removing one front matter field (the app's form editor, a tag
//! rename) while every other byte of the post stays as the author wrote it.
//! Which key a field lives under follows the same names `parse` reads; the
//! format-specific work is in `edit_yaml` and `edit_toml`.

use serde_json::Value;

use super::fields::{ALIASES, RawField, TAGS, TAXONOMIES};
use super::split::{self, Split};
use super::{Format, PostDate, edit_toml, edit_yaml, read_toml, read_yaml};
use crate::diagnostics::Problem;

/// A value the form editor writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldValue {
    Text(String),
    List(Vec<String>),
    Bool(bool),
    Date(PostDate),
}

impl FieldValue {
    /// The value as `parse` reads it back before typing (dates as text).
    pub(crate) fn to_json(&self) -> Value {
        match self {
            FieldValue::Text(text) => Value::String(text.clone()),
            FieldValue::List(items) => items.iter().map(|item| Value::String(item.clone())).collect(),
            FieldValue::Bool(flag) => Value::Bool(*flag),
            FieldValue::Date(date) => Value::String(date.to_string()),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The front matter does not parse, so no edit can be made safely.
    #[error("the front matter cannot be read (line {}): {}", .0.line, .0.message)]
    Unreadable(Problem),
    #[error("`{0}` cannot be written as a front matter key: use letters, digits, `_` and `-`")]
    BadKey(String),
    #[error("`{key}` cannot be changed from the editor: {reason}")]
    Unsupported { key: String, reason: String },
    /// A last check found that the edited text would not read back as
    /// intended (say, a YAML alias elsewhere pointed at the old value); the
    /// text was not changed.
    #[error("changing `{key}` would {reason}; edit the file by hand")]
    WouldBreak { key: String, reason: String },
}

/// Where a field is in the front matter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Place {
    Top(String),
    /// Zola's `[taxonomies] tags`.
    TaxonomyTags,
}

/// `text` with the field `key` set to `value`. Only the lines (YAML) or the
/// value (TOML) of that field change; a missing field is added at the end of
/// the front matter, and a text without front matter gets a YAML block.
pub fn set_field(text: &str, key: &str, value: &FieldValue) -> Result<String, EditError> {
    check_key(key)?;
    let split = split::split(text).map_err(EditError::Unreadable)?;
    let before = raw_fields(text, &split)?;
    let place = place_to_set(&before, key);
    let restyled = as_written_before(value, &place, &before);
    let value = restyled.as_ref().unwrap_or(value);
    let front_matter = &text[split.front_matter.clone()];
    let eol = split.line_ending;
    let edited = match split.format {
        None => format!("---{eol}{}---{eol}", edit_yaml::set("", &place, value, eol, None)),
        Some(Format::Yaml) => edit_yaml::set(front_matter, &place, value, eol, taxonomies(&before)),
        Some(Format::Toml) => edit_toml::set(front_matter, &place, value, eol)
            .map_err(|reason| EditError::Unsupported { key: key.to_string(), reason })?,
    };
    checked(text, splice(text, &split, &edited), key, &before, &[place], Some(value))
}

/// `text` without the field `key`, under whichever of its names it is written
/// (`summary` removes `description` too, `tags` Zola's taxonomy tags), so the
/// post no longer has it. A field that is not there is not an error.
pub fn remove_field(text: &str, key: &str) -> Result<String, EditError> {
    check_key(key)?;
    let split = split::split(text).map_err(EditError::Unreadable)?;
    let before = raw_fields(text, &split)?;
    let places = places_to_remove(&before, key);
    if places.is_empty() {
        return Ok(text.to_string());
    }
    let mut front_matter = text[split.front_matter.clone()].to_string();
    for place in &places {
        front_matter = match split.format {
            Some(Format::Toml) => edit_toml::remove(&front_matter, place)
                .map_err(|reason| EditError::Unsupported { key: key.to_string(), reason })?,
            _ => edit_yaml::remove(&front_matter, place, taxonomies(&before)),
        };
    }
    checked(text, splice(text, &split, &front_matter), key, &before, &places, None)
}

/// A list for a field written as one text keeps that form when it can:
/// `tags: "rust, async"` stays comma-separated, `author: Kim` a single name.
fn as_written_before(value: &FieldValue, place: &Place, fields: &[RawField]) -> Option<FieldValue> {
    let FieldValue::List(items) = value else {
        return None;
    };
    let (name, old) = match place {
        Place::Top(name) => (name.as_str(), fields.iter().find(|field| &field.key == name).map(|field| &field.value)),
        Place::TaxonomyTags => ("tags", taxonomies(fields).and_then(|map| map.get("tags"))),
    };
    if !matches!(old, Some(Value::String(_))) {
        return None;
    }
    match items.as_slice() {
        [] => None,
        // Tags are split at commas when read, so a tag with a comma needs a list.
        _ if TAGS.contains(&name) => {
            (!items.iter().any(|item| item.contains(','))).then(|| FieldValue::Text(items.join(", ")))
        }
        [only] => Some(FieldValue::Text(only.clone())),
        _ => None,
    }
}

/// Keys the editors can write in both formats without quoting.
fn check_key(key: &str) -> Result<(), EditError> {
    let mut chars = key.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    let rest_ok = chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    // YAML would read these bare words as booleans or null, not as keys.
    let reserved = ["true", "false", "yes", "no", "on", "off", "y", "n", "null"];
    if first_ok && rest_ok && !reserved.iter().any(|word| key.eq_ignore_ascii_case(word)) {
        Ok(())
    } else {
        Err(EditError::BadKey(key.to_string()))
    }
}

fn raw_fields(text: &str, split: &Split) -> Result<Vec<RawField>, EditError> {
    let front_matter = &text[split.front_matter.clone()];
    let read = match split.format {
        None => Ok(Vec::new()),
        Some(Format::Yaml) => read_yaml::read(front_matter, split.front_matter_line),
        Some(Format::Toml) => read_toml::read(front_matter, split.front_matter_line),
    };
    read.map_err(EditError::Unreadable)
}

fn taxonomies(fields: &[RawField]) -> Option<&Value> {
    fields.iter().find(|field| field.key == TAXONOMIES).map(|field| &field.value)
}

fn has(fields: &[RawField], key: &str) -> bool {
    fields.iter().any(|field| field.key == key)
}

fn has_taxonomy_tags(fields: &[RawField]) -> bool {
    matches!(taxonomies(fields), Some(Value::Object(map)) if map.contains_key("tags"))
}

fn aliases_of(key: &str) -> &'static [&'static str] {
    ALIASES.iter().find(|names| names.contains(&key)).copied().unwrap_or(&[])
}

/// The key itself if present, else the name `parse` reads this field from,
/// else Zola's taxonomies for tags, else a new key.
fn place_to_set(fields: &[RawField], key: &str) -> Place {
    if has(fields, key) {
        return Place::Top(key.to_string());
    }
    let names = aliases_of(key);
    if let Some(name) = names.iter().find(|name| has(fields, name)) {
        return Place::Top(name.to_string());
    }
    if names == TAGS && matches!(taxonomies(fields), Some(Value::Object(_))) {
        return Place::TaxonomyTags;
    }
    Place::Top(key.to_string())
}

fn places_to_remove(fields: &[RawField], key: &str) -> Vec<Place> {
    let names = match aliases_of(key) {
        [] => &[key][..],
        names => names,
    };
    let mut places: Vec<Place> =
        names.iter().filter(|name| has(fields, name)).map(|name| Place::Top(name.to_string())).collect();
    if names == TAGS && has_taxonomy_tags(fields) {
        places.push(Place::TaxonomyTags);
    }
    places
}

fn splice(text: &str, split: &Split, front_matter: &str) -> String {
    let range = split.front_matter.clone();
    format!("{}{front_matter}{}", &text[..range.start], &text[range.end..])
}

/// The edit is returned only if the new text reads, every other field reads
/// as before, the body is untouched, and the edited field reads as `value`.
/// This guards the line-based YAML editing against the cases it does not
/// model (anchors and aliases, odd indentation).
fn checked(
    old_text: &str,
    new_text: String,
    key: &str,
    before: &[RawField],
    places: &[Place],
    value: Option<&FieldValue>,
) -> Result<String, EditError> {
    let broken = |reason: String| EditError::WouldBreak { key: key.to_string(), reason };
    let new_split =
        split::split(&new_text).map_err(|problem| broken(format!("break the front matter: {}", problem.message)))?;
    let after =
        raw_fields(&new_text, &new_split).map_err(|error| broken(format!("break the front matter: {error}")))?;
    let old_split = split::split(old_text).map_err(EditError::Unreadable)?;
    if new_text[new_split.body.clone()] != old_text[old_split.body.clone()] {
        return Err(broken("change the post's body".into()));
    }
    if without(before, places) != without(&after, places) {
        return Err(broken("change other fields".into()));
    }
    if let (Some(value), Some(place)) = (value, places.first()) {
        let written = match place {
            Place::Top(name) => after.iter().find(|field| &field.key == name).map(|field| &field.value),
            Place::TaxonomyTags => taxonomies(&after).and_then(|map| map.get("tags")),
        };
        let reads_back = match (value, written) {
            (FieldValue::Date(date), Some(Value::String(text))) => PostDate::parse(text) == Some(*date),
            (value, Some(written)) => value.to_json() == *written,
            (_, None) => false,
        };
        if !reads_back {
            return Err(broken("not read back as the value given".into()));
        }
    }
    Ok(new_text)
}

/// The fields other than those at `places`, for comparing before and after.
/// A `taxonomies` left empty counts as absent.
fn without(fields: &[RawField], places: &[Place]) -> Vec<(String, Value)> {
    let mut kept = Vec::new();
    for field in fields {
        if places.contains(&Place::Top(field.key.clone())) {
            continue;
        }
        let mut value = field.value.clone();
        if field.key == TAXONOMIES && places.contains(&Place::TaxonomyTags) {
            match &mut value {
                Value::Object(map) => {
                    map.shift_remove("tags");
                    if map.is_empty() {
                        continue;
                    }
                }
                Value::Null => continue,
                _ => {}
            }
        }
        kept.push((field.key.clone(), value));
    }
    kept
}

#[cfg(test)]
mod tests;
