//! Cases checked against sacreBLEU 2.6.0's tokenizers (expected values are its output); the exhaustive
//! differential tests against the Python tokenizers are in tests/test_native_tokenizers.py.

use super::{Fallback, Tokenizer, TOKEN_PADDING};

fn toks(name: &str, lowercase: bool, line: &str) -> Vec<String> {
    let tok = Tokenizer::from_name(name).expect("known tokenizer");
    let mut buf = String::new();
    let mut spans = vec![(7, 7)];
    tok.tokenize(line, lowercase, &mut buf, &mut spans)
        .expect("no fallback");
    spans
        .iter()
        .map(|&(s, e)| buf[s as usize..e as usize].to_string())
        .collect()
}

fn check(name: &str, line: &str, expected: &[&str]) {
    assert_eq!(toks(name, false, line), expected, "{name} {line:?}");
}

#[test]
fn names() {
    for name in ["none", "13a", "intl", "char", "zh", "cjk-char"] {
        assert!(Tokenizer::from_name(name).is_some());
    }
    assert_eq!(Tokenizer::from_name("ja-mecab"), None);
    assert_eq!(Tokenizer::from_name("13A"), None);
}

#[test]
fn t13a_like_sacrebleu() {
    check("13a", "Hello, world.", &["Hello", ",", "world", "."]);
    check("13a", "a..b", &["a", ".", ".", "b"]);
    check(
        "13a",
        "1,000.5 and 3-4 x-y",
        &["1,000.5", "and", "3", "-", "4", "x-y"],
    );
    check(
        "13a",
        "&quot;Hi&quot; &amp;lt; <skipped> ok",
        &["\"", "Hi", "\"", "<", "ok"],
    );
    check("13a", "end-\nof line\nnext", &["endof", "line", "next"]);
    check(
        "13a",
        ".5 .a a. 5. a.. a...",
        &[
            ".", "5", ".", "a", "a", ".", "5", ".", "a", ".", ".", "a", ".", ".", ".",
        ],
    );
    check(
        "13a",
        "It's (really) [good]!",
        &["It's", "(", "really", ")", "[", "good", "]", "!"],
    );
    check(
        "13a",
        "2014-2015: $3.50/unit",
        &["2014", "-", "2015", ":", "$", "3.50", "/", "unit"],
    );
    check("13a", "  \t\u{3000}", &[]);
    check("13a", "", &[]);
}

#[test]
fn intl_like_sacrebleu() {
    check("intl", "Hello, world.", &["Hello", ",", "world", "."]);
    check(
        "intl",
        "1,000.5 €3 «quoted»",
        &["1,000.5", "€", "3", "«", "quoted", "»"],
    );
    check("intl", "!a a! 2014.", &["!", "a", "a", "!", "2014."]);
    check("intl", "  ,x", &[",", "x"]);
}

#[test]
fn zh_like_sacrebleu() {
    check(
        "zh",
        "我爱你。Hello, world.",
        &["我", "爱", "你", "。", "Hello", ",", "world", "."],
    );
    check("zh", "a.中.b", &["a", ".", "中", ".", "b"]);
    check("zh", ".5 x", &[".5", "x"]);
    check("zh", "\u{2001}.a 5.", &[".", "a", "5."]);
}

#[test]
fn char_none_and_lowercase() {
    check("char", "ab c\u{3000}d", &["a", "b", "c", "d"]);
    check("none", " a\u{a0}b\u{85}c\x1fd ", &["a", "b", "c", "d"]);
    assert_eq!(
        toks("none", true, "İSTANBUL ΟΔΟΣ"),
        ["i\u{307}stanbul", "οδος"]
    );
    assert_eq!(toks("char", true, "İ"), ["i", "\u{307}"]);
    // lowercasing comes before the 13a steps: an upper-case entity is unescaped
    assert_eq!(toks("13a", true, "&QUOT;A<SKIPPED>"), ["\"", "a"]);
}

#[test]
fn cjk_char_units() {
    check(
        "cjk-char",
        "日本語text、です",
        &["日", "本", "語", "text", "、", "で", "す"],
    );
    // a combining mark stays with the character before it
    check("cjk-char", "か\u{3099}き", &["か\u{3099}", "き"]);
}

#[test]
fn buffers_are_reused_and_cleared() {
    let tok = Tokenizer::T13a;
    let mut buf = String::from("old");
    let mut spans = vec![(0, 3)];
    tok.tokenize("x.", false, &mut buf, &mut spans).unwrap();
    assert_eq!(buf, format!("x.{TOKEN_PADDING}"));
    assert_eq!(spans, [(0, 1), (1, 2)]);
    tok.tokenize("", false, &mut buf, &mut spans).unwrap();
    assert!(buf == TOKEN_PADDING && spans.is_empty());
    let _: Result<(), Fallback> = Ok(());
}

/// Speed of each tokenizer on a text file (one segment per line), e.g.
/// `BLEUSCOPE_TOK_BENCH=../../shared/data/mt/newstest2021/en-de/ref.A.txt cargo test --release -p
/// bleuscope-core bench_tokenizers -- --ignored --nocapture`.
#[test]
#[ignore = "measurement, not a test: needs BLEUSCOPE_TOK_BENCH=<text file>"]
#[allow(
    clippy::print_stdout,
    reason = "a measurement run by hand prints its figures"
)]
fn bench_tokenizers() {
    let Ok(path) = std::env::var("BLEUSCOPE_TOK_BENCH") else {
        return;
    };
    let text = std::fs::read_to_string(path).expect("readable UTF-8 file");
    let lines: Vec<&str> = text.split('\n').collect();
    let words: usize = lines.iter().map(|l| l.split_whitespace().count()).sum();
    let mut buf = String::new();
    let mut spans = Vec::new();
    // calibration: the same loop with std's ASCII splitting and no copying (not exact, just a floor)
    let mut best = u64::MAX;
    let mut count = 0;
    for _ in 0..7 {
        let start = thread_cpu_ns();
        for line in &lines {
            count += line
                .split_ascii_whitespace()
                .map(|w| w.len())
                .sum::<usize>();
        }
        best = best.min(thread_cpu_ns() - start);
    }
    println!(
        "floor: split_ascii_whitespace {:6.1} ns/word ({count})",
        best as f64 / words as f64
    );
    let names = std::env::var("BLEUSCOPE_TOK_BENCH_NAMES")
        .unwrap_or_else(|_| "none,13a,intl,char,zh,cjk-char".to_string());
    for name in names.split(',') {
        let tok = Tokenizer::from_name(name).expect("a tokenizer name");
        for lowercase in [false, true] {
            let mut best = u64::MAX;
            for _ in 0..7 {
                let start = thread_cpu_ns();
                for line in &lines {
                    tok.tokenize(line, lowercase, &mut buf, &mut spans).unwrap();
                }
                best = best.min(thread_cpu_ns() - start);
            }
            println!(
                "{name:9} lowercase={lowercase:5} {:6.1} ns/word (CPU)",
                best as f64 / words as f64
            );
        }
    }
}

/// CPU time of this thread in ns (Linux scheduler statistics: unaffected by other processes' load).
fn thread_cpu_ns() -> u64 {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").expect("Linux schedstat");
    stat.split_whitespace().next().unwrap().parse().unwrap()
}

/// Deterministic random text from pieces the rules act on, everything else drawn from all of Unicode.
fn random_lines(count: usize) -> Vec<String> {
    const PIECES: &[&str] = &[
        ".",
        ",",
        "-",
        "'",
        "(",
        ")",
        "&",
        ";",
        "<",
        ">",
        "0",
        "7",
        "a",
        "Z",
        " ",
        "\t",
        "\n",
        "\u{3000}",
        "\u{a0}",
        "\u{85}",
        "\u{2028}",
        "<skipped>",
        "&amp;",
        "&quot;",
        "-\n",
        "Σ",
        "İ",
        "ς",
        "\u{301}",
        "\u{3099}",
        "中",
        "か",
        "한",
        "\u{2001}",
        "\u{2a6d}",
        "\u{ff0c}",
        "€",
        "«",
        "¿",
        "٣",
        "\u{20000}",
        "\u{1f600}",
        "\u{ad}",
        "\u{200b}",
        "\u{212a}",
        "ẞ",
    ];
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count)
        .map(|_| {
            let len = (next() % 24) as usize;
            let mut line = String::new();
            for _ in 0..len {
                let r = next();
                if r % 3 == 0 {
                    let c = (r >> 8) as u32 % 0x110000;
                    line.push(char::from_u32(c).unwrap_or('\u{fffd}'));
                } else {
                    line.push_str(PIECES[(r >> 8) as usize % PIECES.len()]);
                }
            }
            line
        })
        .collect()
}

#[test]
fn tokens_are_the_text_without_whitespace() {
    // the rules only insert spaces (13a's line-level steps aside), so the tokens put together are the
    // (lowercased) text with its whitespace removed; and nothing panics on any input
    let mut buf = String::new();
    let mut spans = Vec::new();
    for line in random_lines(20_000) {
        for lowercase in [false, true] {
            let text = if lowercase {
                line.to_lowercase()
            } else {
                line.clone()
            };
            for name in ["none", "13a", "intl", "char", "zh", "cjk-char"] {
                let tok = Tokenizer::from_name(name).unwrap();
                tok.tokenize(&line, lowercase, &mut buf, &mut spans)
                    .unwrap();
                assert!(
                    spans.iter().all(|&(s, e)| s < e),
                    "{name}: empty token in {line:?}"
                );
                assert!(spans.windows(2).all(|w| w[0].1 <= w[1].0));
                let joined: String = spans
                    .iter()
                    .map(|&(s, e)| &buf[s as usize..e as usize])
                    .collect();
                assert!(
                    !joined.chars().any(is_py_space),
                    "{name}: whitespace in a token"
                );
                let steps_13a =
                    matches!(name, "13a" | "cjk-char") && text.contains(['<', '&', '\n']);
                // Rust's to_lowercase differs from Python's for some characters: compare only the
                // cases it cannot affect (no lowercasing, or ASCII text)
                if !steps_13a && (!lowercase || line.is_ascii()) {
                    let expected: String = text.split(is_py_space).collect();
                    assert_eq!(joined, expected, "{name} lowercase={lowercase} {line:?}");
                }
            }
        }
    }
}

fn is_py_space(c: char) -> bool {
    super::unicode::props(c as u32) & super::tables::WS != 0
}

#[test]
fn long_lines_and_long_words() {
    // a 3 MB line, then a 1 MB word that goes through the simulation (scratch grows, then is given back)
    let line = "Word, ".repeat(500_000);
    let got = toks("13a", true, &line);
    assert_eq!(got.len(), 1_000_000);
    assert!(got.chunks(2).all(|pair| pair == ["word", ","]));
    let word = "1.-".repeat(350_000);
    let got = toks("13a", false, &word);
    assert_eq!(got.concat(), word);
    // as sacreBLEU: "1.-1.-1.-" -> 1 . -1 . -1 . -  (the '-' follows a '.', not a digit)
    assert_eq!(got[..4], ["1", ".", "-1", "."]);
    assert_eq!(got.len(), 2 * 350_000 + 1);
    assert_eq!(toks("intl", false, "x"), ["x"]);
}
