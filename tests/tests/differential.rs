//! The differential test of issue 20: a hostile set of messages through every entry
//! point of the crate's decoder (see `mcp_tests::fuzz` for the entry points and what is
//! compared), every version, both sides: the same outcome everywhere, no panic, and
//! nothing lost on the messages accepted. Prints the outcome table.

use mcp_tests::fuzz::{Tally, run};

const CALL: &str = r#""jsonrpc":"2.0","id":1,"method":"tools/call""#;

/// `v` nested `depth` times in arrays or objects.
fn nested(depth: usize, object: bool, v: &str) -> String {
    if object {
        format!("{}{v}{}", r#"{"a":"#.repeat(depth), "}".repeat(depth))
    } else {
        format!("{}{v}{}", "[".repeat(depth), "]".repeat(depth))
    }
}

/// Deep nesting in every free-form spot, from 1 to 10^6 levels.
fn deep() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for depth in [1, 100, 123, 124, 125, 126, 127, 128, 1_000, 1_000_000] {
        for object in [false, true] {
            let d = nested(depth, object, "1");
            for m in [
                format!(r#"{{{CALL},"params":{{"name":"t","arguments":{{"x":{d}}}}}}}"#),
                format!(r#"{{{CALL},"params":{{"name":"t","_meta":{{"x":{d}}}}}}}"#),
                format!(r#"{{{CALL},"params":{{"name":"t","vendor":{d}}}}}"#),
                format!(r#"{{{CALL},"params":{{"name":"t"}},"vendor":{d}}}"#),
                format!(
                    r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[],"structuredContent":{{"x":{d}}}}}}}"#
                ),
                format!(
                    r#"{{"jsonrpc":"2.0","id":1,"error":{{"code":1,"message":"m","data":{d}}}}}"#
                ),
                format!(
                    r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"info","data":{d}}}}}"#
                ),
                format!(r#"{{"jsonrpc":"2.0","id":{d},"method":"ping"}}"#),
                format!(r#"[{{{CALL},"params":{{"name":"t","arguments":{{"x":{d}}}}}}}]"#),
            ] {
                out.push(m.into_bytes());
            }
        }
        out.push(format!("{}{}", "[".repeat(depth), "]".repeat(depth)).into_bytes());
    }
    out
}

/// Huge arrays, objects and strings.
fn huge() -> Vec<Vec<u8>> {
    // Large enough for the set of names (past 16 members) and the growth of every buffer;
    // small enough for a debug build of the harness, which runs each 24 times.
    let n = 20_000;
    let array = format!("[{}1]", "1,".repeat(n));
    let members: Vec<String> = (0..n).map(|i| format!(r#""k{i}":{i}"#)).collect();
    let object = format!("{{{}}}", members.join(","));
    let repeated = format!(r#"{{{},"k7":0}}"#, members.join(","));
    let string = format!("\"{}\"", "x".repeat(1 << 18));
    vec![
        format!(r#"{{{CALL},"params":{{"name":"t","arguments":{{"a":{array}}}}}}}"#),
        format!(r#"{{{CALL},"params":{{"name":"t","arguments":{object}}}}}"#),
        format!(r#"{{{CALL},"params":{{"name":"t","arguments":{repeated}}}}}"#),
        format!(r#"{{{CALL},"params":{{"name":{string}}}}}"#),
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[{}{{"type":"text","text":"a"}}]}}}}"#,
            r#"{"type":"text","text":"a"},"#.repeat(2_000)
        ),
        format!(r#"{{"jsonrpc":"2.0","id":1,"result":{object}}}"#),
    ]
    .into_iter()
    .map(String::into_bytes)
    .collect()
}

/// Invalid UTF-8 and lone surrogates in keys and values, of known and unknown members.
fn encodings() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for bad in [
        &b"\xff"[..],
        b"\xc3",
        b"\xed\xa0\x80",
        b"\xf4\x90\x80\x80",
        b"\\ud800",
        b"\\udc00",
        b"\\ud800\\u0041",
        b"\\ud83d\\ude00",
    ] {
        let b = String::from_utf8_lossy(bad).into_owned();
        let raw = |template: &str| -> Vec<u8> {
            let mut v = Vec::new();
            let mut parts = template.split("BAD");
            v.extend_from_slice(parts.next().unwrap_or_default().as_bytes());
            for p in parts {
                v.extend_from_slice(bad);
                v.extend_from_slice(p.as_bytes());
            }
            let _ = &b;
            v
        };
        for t in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/cBADll","params":{"name":"t"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"tBAD"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"kBAD":1}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"k":"vBAD"}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"kBAD":1}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"},"vendorBAD":1}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"},"vendor":"BAD"}"#,
            r#"{"jsonrpc":"2.0","id":"iBAD","method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"BAD"}]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"BAD"}}"#,
            r#"{"jsonrpc":"2.0BAD","id":1,"method":"ping"}"#,
        ] {
            out.push(raw(t));
        }
    }
    out
}

/// Numbers at and past every bound, as ids, as integer and number fields, free-form.
fn numbers() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for n in [
        "0",
        "-0",
        "1.0",
        "1e2",
        "1E+2",
        "-1",
        "9007199254740993",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "18446744073709551616",
        "1e308",
        "1.7976931348623157e308",
        "1.7976931348623159e308",
        "1e309",
        "1e400",
        "-1e400",
        "1e-400",
        "0.1",
        "2.5e-3",
        &"9".repeat(400),
    ] {
        for t in [
            format!(r#"{{"jsonrpc":"2.0","id":{n},"method":"ping"}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":{n},"result":{{}}}}"#),
            format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":{n},"progress":{n},"total":{n}}}}}"#
            ),
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{{"messages":[],"maxTokens":{n}}}}}"#
            ),
            format!(r#"{{{CALL},"params":{{"name":"t","arguments":{{"n":{n}}}}}}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":1,"error":{{"code":{n},"message":"m"}}}}"#),
        ] {
            out.push(t.into_bytes());
        }
    }
    out
}

/// The same member twice, at every level.
fn duplicates() -> Vec<Vec<u8>> {
    [
        r#"{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"},"params":{"name":"b"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{},"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"},"error":{"code":1,"message":"m"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"ping","x":1,"x":2}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","name":"b"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"k":1,"k":2}}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","_meta":{"k":1,"k":2}}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","_meta":{"k":1},"_meta":{}}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"k":{"d":[{"e":1,"e":1}]}}}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"image","type":"text","text":"a"}]}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a","text":"b"}]}}"#,
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"code":2,"message":"m"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","n\u0061me":"b"}}"#,
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping","id":2}]"#,
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect()
}

/// Every combination of envelope members (valid values), and each with a wrong value.
fn envelopes() -> Vec<Vec<u8>> {
    let members = [
        ("jsonrpc", "\"2.0\"", "\"1.0\""),
        ("id", "1", "null"),
        ("method", "\"ping\"", "5"),
        ("params", "{}", "[]"),
        ("result", "{}", "null"),
        (
            "error",
            r#"{"code":-1,"message":"m","data":null}"#,
            r#"{"code":"x"}"#,
        ),
        ("vendor", r#"{"k":[1]}"#, "null"),
    ];
    let mut out = Vec::new();
    for mask in 0u32..(1 << members.len()) {
        let chosen: Vec<_> = members
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, m)| *m)
            .collect();
        let good: Vec<String> = chosen
            .iter()
            .map(|(k, v, _)| format!("\"{k}\":{v}"))
            .collect();
        out.push(format!("{{{}}}", good.join(",")).into_bytes());
        for wrong in 0..chosen.len() {
            let bad: Vec<String> = chosen
                .iter()
                .enumerate()
                .map(|(i, (k, v, w))| format!("\"{k}\":{}", if i == wrong { w } else { v }))
                .collect();
            out.push(format!("{{{}}}", bad.join(",")).into_bytes());
        }
        // The same members backwards, and in every rotation: each member first once, and
        // last once (the one-pass reading takes an `id` written last from the end).
        let mut reversed = good.clone();
        reversed.reverse();
        out.push(format!("{{{}}}", reversed.join(",")).into_bytes());
        for turn in 1..good.len() {
            let mut rotated = good.clone();
            rotated.rotate_left(turn);
            out.push(format!("{{{}}}", rotated.join(",")).into_bytes());
        }
    }
    out
}

/// Batches, good and bad.
fn batches() -> Vec<Vec<u8>> {
    [
        "[]",
        "[[]]",
        "[1]",
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]"#,
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"no/such"}]"#,
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},5,{"jsonrpc":"2.0","id":3,"result":{}}]"#,
        r#"[{"jsonrpc":"2.0","method":"notifications/initialized","params":5}]"#,
        r#"[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"m"}}]"#,
        r#"[[{"jsonrpc":"2.0","id":1,"method":"ping"}]]"#,
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect()
}

/// Ids of every JSON type.
fn ids() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for id in [
        "null",
        "true",
        "false",
        "0",
        "-1",
        "1.5",
        "\"\"",
        "\"s\"",
        "\"\\u0000\"",
        "[]",
        "[1]",
        "{}",
        r#"{"a":1}"#,
    ] {
        for t in [
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":1,"message":"m"}}}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"notifications/initialized"}}"#),
        ] {
            out.push(t.into_bytes());
        }
    }
    out
}

#[test]
fn hostile_messages_get_one_answer_from_every_entry_point() {
    let groups: [(&str, Vec<Vec<u8>>); 8] = [
        (
            "deep nesting (1 to 10^6 levels, every free-form spot)",
            deep(),
        ),
        ("huge arrays, objects, strings", huge()),
        ("invalid UTF-8 and lone surrogates", encodings()),
        ("numbers at and past the bounds", numbers()),
        ("duplicate members at every level", duplicates()),
        ("envelope member combinations", envelopes()),
        ("batches", batches()),
        ("ids of every JSON type", ids()),
    ];
    let mut total = Tally::default();
    println!(
        "| group | cases | runs | comparisons | accepted | -32700 | -32600 | -32601 | -32602 | disagreements |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (name, cases) in &groups {
        let mut tally = Tally::default();
        for case in cases {
            run(&mut tally, case);
        }
        let code = |c: i64| tally.refused.get(&c).copied().unwrap_or(0);
        println!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            tally.inputs,
            tally.runs,
            tally.comparisons,
            tally.accepted,
            code(-32700),
            code(-32600),
            code(-32601),
            code(-32602),
            tally.disagreements.len()
        );
        total.inputs += tally.inputs;
        total.runs += tally.runs;
        total.comparisons += tally.comparisons;
        total.accepted += tally.accepted;
        total.disagreements.extend(tally.disagreements);
    }
    println!(
        "| all | {} | {} | {} | {} | | | | | {} |",
        total.inputs,
        total.runs,
        total.comparisons,
        total.accepted,
        total.disagreements.len()
    );
    assert!(total.inputs > 1_500, "{} cases", total.inputs);
    assert!(
        total.disagreements.is_empty(),
        "entry points disagree:\n{}",
        total.disagreements.join("\n")
    );
}
