//! Which dictionaries the webview checks spelling with: those of the shown
//! post's language (its page's `lang`, as the theme writes it), through
//! WebKitGTK, enchant and the system's hunspell dictionaries (`hunspell-ko`,
//! `hunspell-en-us`). WebKit takes a word that any one of its dictionaries
//! accepts, and the Korean dictionary accepts every word without Hangul, so
//! English is checked only where the page is not Korean; a Korean page also
//! gets the English dictionary, which checks it when no Korean one is found.

/// The dictionaries for a page in `lang` (`ko`, `ko-KR`, `en-US`, …).
pub fn dictionaries(lang: &str) -> &'static [&'static str] {
    let language = lang.split(['-', '_']).next().unwrap_or_default();
    if language.eq_ignore_ascii_case("ko") { &["ko_KR", "en_US"] } else { &["en_US"] }
}

/// Checks spelling in the webview with the dictionaries of `lang`.
#[cfg(target_os = "linux")]
pub fn use_language(webview: &tauri::webview::PlatformWebview, lang: &str) {
    use webkit2gtk::{WebContextExt, WebViewExt};
    if let Some(context) = webview.inner().context() {
        context.set_spell_checking_enabled(true);
        context.set_spell_checking_languages(dictionaries(lang));
    }
}

#[cfg(not(target_os = "linux"))]
pub fn use_language(_: &tauri::webview::PlatformWebview, _: &str) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_korean_page_is_checked_in_korean_any_other_in_english() {
        assert_eq!(dictionaries("ko"), ["ko_KR", "en_US"]);
        assert_eq!(dictionaries("ko-KR"), ["ko_KR", "en_US"]);
        assert_eq!(dictionaries("KO_kr"), ["ko_KR", "en_US"]);
        assert_eq!(dictionaries("en"), ["en_US"]);
        assert_eq!(dictionaries("en-GB"), ["en_US"]);
        assert_eq!(dictionaries(""), ["en_US"]);
        assert_eq!(dictionaries("kok"), ["en_US"], "Konkani is not Korean");
    }
}
