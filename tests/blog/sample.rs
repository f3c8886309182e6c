//! The sample blog in `content/`: what `make run` opens.

use crate::BlogTest;

/// The five posts of the seed page, newest first, as it lists them.
const SEED_TITLES: [&str; 5] = [
    "PyTorch 2.13의 torchcomms — c10d를 대체하러 온 새 분산 통신 백엔드",
    "분산 학습 & GPU 인프라 2026 딥다이브 — DeepSpeed, FSDP2, Megatron-LM, Ray Train, JAX, TorchTitan, Blackwell GB200, MI325X, TPU v5p 총정리",
    "RDMA 완전 가이드 2025: InfiniBand, RoCE, NCCL, GPU 통신 — AI 학습의 숨은 인프라",
    "분산 시스템 완전 정복: CAP theorem부터 분산 ML 학습, Kafka까지",
    "CUDA GPU 프로그래밍 심화: Warp 최적화, Tensor Core, Triton 커널 작성까지",
];

#[test]
fn tags_prints_nccl_5_first() {
    let run = BlogTest::sample().hanji(&["tags"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let lines = run.lines();
    assert_eq!(lines[0], "nccl (5)");
    assert!(lines.len() > 20, "{lines:?}");
    // Most used first, ties by name.
    let counts: Vec<usize> =
        lines.iter().map(|l| l.rsplit_once(" (").unwrap().1.trim_end_matches(')').parse().unwrap()).collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{lines:?}");
    // The draft's tags are not there without --drafts.
    assert!(!lines.iter().any(|l| l.starts_with("fp8 ")), "{lines:?}");
}

#[test]
fn tags_with_drafts_marks_them() {
    let run = BlogTest::sample().hanji(&["tags", "--drafts"]);
    assert_eq!(run.code(), 0);
    assert!(run.lines().contains(&"fp8 (0, 1 draft)".to_string()), "{}", run.stdout());
}

#[test]
fn check_finds_no_problem() {
    let run = BlogTest::sample().hanji(&["check"]);
    assert_eq!(run.stdout(), "", "{}", run.stdout());
    assert_eq!(run.code(), 0);
    assert!(run.stderr().contains("15 posts, 1 page, 0 errors, 0 warnings"), "{}", run.stderr());
}

#[test]
fn the_seed_tag_lists_its_five_posts_newest_first() {
    let blog = BlogTest::sample().load();
    let tag = blog.library.tag("nccl").unwrap();
    assert_eq!((tag.name.as_str(), tag.title.as_str(), tag.count), ("nccl", "Nccl", 5));
    let titles: Vec<&str> = tag.posts.iter().map(|p| blog.library.post(p).unwrap().title.as_str()).collect();
    assert_eq!(titles, SEED_TITLES);
    assert_eq!(blog.config.locale, "ko-KR");
}

#[test]
fn the_bundle_post_has_its_image_beside_it() {
    let blog = BlogTest::sample().load();
    let bundle = blog.library.posts().find(|p| p.bundle).expect("a bundle post");
    assert_eq!(bundle.slug, "all-reduce-traffic-diagram");
    assert!(blog.assets.contains(&bundle.folder().join("diagram.png")));
}
