//! Prints, per corpus, protocol version and kind of message, what each decoder makes of
//! the messages: rejected (a message the schema says is valid that it fails to decode),
//! mis-routed (decoded as another kind or method, or a result as another method's
//! result type), untyped (landed in a catch-all variant), changed (decoded, encoded, and
//! not the same JSON value). Then the failures one by one (the first few of each sort;
//! `--all` for every one).
//!
//! `cargo run -p mcp-compare --release --bin outcomes [-- --all]`

use std::collections::BTreeMap;

use mcp_compare::corpus::{self, VERSIONS};
use mcp_compare::outcome::{self, Finding, Oracle, Tally, Validity};
use mcp_compare::{Case, Decoder, ours, proxy, rmcp, rms, typify, value};

/// One row: a decoder's tally, or `None` where it does not model the version.
type Row = (&'static str, Option<Tally>);

fn row<D: Decoder>(cases: &[&Case], validity: &[Validity], findings: &mut Vec<Finding>) -> Row {
    let version = cases.first().map(|c| c.version).unwrap_or_default();
    if !D::supports(version) {
        return (D::NAME, None);
    }
    (
        D::NAME,
        Some(outcome::tally::<D>(cases, validity, findings)),
    )
}

fn rows(cases: &[&Case], validity: &[Validity], findings: &mut Vec<Finding>) -> Vec<Row> {
    vec![
        row::<ours::Ours>(cases, validity, findings),
        row::<proxy::Proxy>(cases, validity, findings),
        row::<rmcp::Rmcp>(cases, validity, findings),
        row::<rms::RustMcpSchema>(cases, validity, findings),
        row::<typify::Typify>(cases, validity, findings),
        row::<value::JsonValue>(cases, validity, findings),
        row::<value::Ignored>(cases, validity, findings),
    ]
}

fn cell(n: Option<usize>) -> String {
    n.map_or_else(|| "n/a".to_string(), |n| n.to_string())
}

fn add(total: &mut Option<Tally>, t: &Tally) {
    let total = total.get_or_insert_with(Tally::default);
    let sum = |a: &mut Option<usize>, b: Option<usize>| {
        if let Some(b) = b {
            *a.get_or_insert(0) += b;
        }
    };
    total.messages += t.messages;
    total.not_valid += t.not_valid;
    total.rejected += t.rejected;
    sum(&mut total.misrouted, t.misrouted);
    sum(&mut total.untyped, t.untyped);
    sum(&mut total.changed, t.changed);
}

fn print_row(group: &str, decoder: &str, tally: Option<&Tally>) {
    match tally {
        None => println!(
            "{group:<28} {decoder:<16} {:>8} {:>8} {:>8} {:>10} {:>8} {:>8}",
            "n/a", "", "", "", "", ""
        ),
        Some(t) => println!(
            "{group:<28} {decoder:<16} {:>8} {:>8} {:>8} {:>10} {:>8} {:>8}",
            t.messages,
            t.not_valid,
            t.rejected,
            cell(t.misrouted),
            cell(t.untyped),
            cell(t.changed)
        ),
    }
}

fn main() {
    let all = std::env::args().any(|a| a == "--all");
    let mut oracle = Oracle::default();
    let mut findings = Vec::new();
    println!(
        "{:<28} {:<16} {:>8} {:>8} {:>8} {:>10} {:>8} {:>8}",
        "group", "decoder", "messages", "invalid", "rejected", "mis-routed", "untyped", "changed"
    );
    for corpus in corpus::all() {
        for note in &corpus.notes {
            eprintln!("{}: {note}", corpus.name);
        }
        let mut totals: BTreeMap<usize, (&'static str, Option<Tally>)> = BTreeMap::new();
        let groups = outcome::groups(corpus.name, &corpus.cases);
        let mut invalid_shown = 0;
        for ((name, v, kind), cases) in &groups {
            let validity: Vec<Validity> = cases.iter().map(|c| oracle.check(c)).collect();
            for (case, validity) in cases.iter().zip(&validity) {
                if *validity != Validity::Valid && invalid_shown < 20 {
                    invalid_shown += 1;
                    eprintln!(
                        "{name}: not valid by the schema: {}: {validity:?}",
                        case.name
                    );
                }
            }
            let group = format!(
                "{name} {} {}",
                VERSIONS.get(*v).copied().unwrap_or("?"),
                kind.group()
            );
            for (i, (decoder, tally)) in rows(cases, &validity, &mut findings)
                .into_iter()
                .enumerate()
            {
                print_row(&group, decoder, tally.as_ref());
                let total = totals.entry(i).or_insert((decoder, None));
                if let Some(t) = &tally {
                    add(&mut total.1, t);
                }
            }
        }
        for (decoder, total) in totals.values() {
            print_row(
                &format!("{} (all it models)", corpus.name),
                decoder,
                total.as_ref(),
            );
        }
        println!();
    }
    // The failures, the first few of each sort per decoder.
    let mut by_sort: BTreeMap<(&str, &str), Vec<&Finding>> = BTreeMap::new();
    for f in &findings {
        by_sort.entry((f.decoder, f.what)).or_default().push(f);
    }
    for ((decoder, what), list) in by_sort {
        println!("{decoder}: {what}: {}", list.len());
        // The same detail on many messages (10 000 progress notifications) once.
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for f in &list {
            *seen.entry(f.detail.clone()).or_default() += 1;
        }
        let mut shown = 0;
        let mut printed = std::collections::BTreeSet::new();
        for f in list {
            if !all && shown >= 8 {
                break;
            }
            if !printed.insert(&f.detail) {
                continue;
            }
            shown += 1;
            let n = seen[&f.detail];
            let more = if n > 1 {
                format!(" (and {} more like it)", n - 1)
            } else {
                String::new()
            };
            println!("  {}: {}{more}", f.case, f.detail);
        }
    }
}
