//! What a WordPress export holds besides its posts: links by WordPress's
//! own number (`/?p=12`) lead to the old address of the post they name,
//! which the new blog keeps, and comments, which are not imported, are
//! counted in the report, so nothing is lost without a word.

use std::fs;
use std::process::Command;

use super::Run;

#[test]
fn links_by_number_lead_to_the_old_address_and_comments_are_named() {
    let site = "https://old.example";
    let body = format!(
        "<p>See <a href=\"{site}/?page_id=2\">about</a>, <a href=\"/?p=1\">this post</a> and \
         <a href=\"{site}/?p=77\">a deleted one</a>; <a href=\"https://other.example/?p=2\">elsewhere</a>.</p>"
    );
    let comment = |id: u32, approved: &str| {
        format!(
            "<wp:comment><wp:comment_id>{id}</wp:comment_id><wp:comment_author><![CDATA[Bo]]></wp:comment_author>\
             <wp:comment_content><![CDATA[Nice <b>post</b>]]></wp:comment_content>\
             <wp:comment_approved>{approved}</wp:comment_approved></wp:comment>"
        )
    };
    let comments = format!("{}{}{}</item>", comment(1, "1"), comment(2, "1"), comment(3, "spam"));
    let wxr = super::import_images::wxr(site, &body);
    let at = wxr.find("<wp:post_type>post</wp:post_type>").unwrap();
    let end = at + wxr[at..].find("</item>").unwrap();
    let wxr = format!("{}{}{}", &wxr[..end], comments, &wxr[end + "</item>".len()..]);
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("old.xml"), wxr).unwrap();
    let run = Run(Command::new(env!("CARGO_BIN_EXE_hanji"))
        .args(["import", "old.xml", "--into", "blog", "--offline"])
        .current_dir(dir.path())
        .output()
        .unwrap());
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let text = fs::read_to_string(dir.path().join("blog/posts/hello/index.md")).unwrap();
    assert!(text.contains("[about](/about/)") && text.contains("[this post](/hello/)"), "{text}");
    assert!(text.contains("[a deleted one](https://old.example/?p=77)"), "{text}");
    assert!(text.contains("[elsewhere](https://other.example/?p=2)"), "{text}");
    // The old addresses they lead to are the new blog's.
    let blog = hanji::load(&dir.path().join("blog")).unwrap();
    let addresses = hanji::Addresses::new(&blog.config, &blog.library);
    let hello = blog.library.posts().find(|p| p.title == "Hello").unwrap();
    assert!(addresses.aliases(hello).contains(&"hello/".to_string()), "{:?}", addresses.aliases(hello));
    let about = blog.library.posts().find(|p| p.title == "About").unwrap();
    assert_eq!(addresses.post(about), "about/");
    let out = run.stdout();
    let source = format!("item 1 \"Hello\" ({site}/hello/)");
    assert!(out.contains(&format!("{source}: the link {site}/?p=77 names item 77, not a published post")), "{out}");
    assert!(out.contains(&format!("{source}: 2 comment(s) not imported")), "the approved ones: {out}");
}
