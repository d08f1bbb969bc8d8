//! Docs: schema descriptions (JSDoc-flavoured Markdown) to rustdoc lines.
//!
//! `{@link X}` becomes an intra-doc link when `X` names a definition (also the malformed
//! forms upstream emits, such as `{@link CallToolRequesttools/call}`), and code text when
//! it does not. Text that rustdoc would misread (bare URLs, stray brackets, HTML-like
//! tags, unbalanced backticks, code fences that would become doctests) is escaped.

/// Renders a description as doc lines. `resolve` maps a schema definition name to the
/// Rust path to link to.
/// Code points that change the direction of text: rustc denies them in doc comments
/// (`text_direction_codepoint_in_literal`), so they are written as `U+XXXX`.
fn visible_controls(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => format!("U+{:04X}", c as u32),
            c => c.to_string(),
        })
        .collect()
}

pub fn render(text: &str, resolve: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
    let linked = rewrite_links(&visible_controls(text), resolve);
    let mut out = Vec::new();
    let mut in_fence = false;
    for line in linked.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            if in_fence {
                out.push(line.to_string());
            } else {
                let lang = trimmed.trim_start_matches('`').trim();
                let indent = &line[..line.len() - trimmed.len()];
                let lang = if lang.is_empty() || lang == "rust" {
                    "text"
                } else {
                    lang
                };
                out.push(format!("{indent}```{lang}"));
            }
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            out.push(line.to_string());
        } else {
            out.push(escape_line(line));
        }
    }
    if in_fence {
        out.push("```".to_string());
    }
    // Indented code blocks would be compiled as doctests: keep at most three spaces of
    // indentation on a line that follows a blank line.
    let mut prev_blank = true;
    for line in &mut out {
        let indent = line.len() - line.trim_start().len();
        if prev_blank && indent >= 4 {
            *line = format!("   {}", line.trim_start());
        }
        prev_blank = line.trim().is_empty();
    }
    out
}

/// Placeholders for link brackets, so that escaping leaves them alone.
const OPEN: char = '\u{E000}';
const MID: char = '\u{E001}';
const CLOSE: char = '\u{E002}';
const CLOSE_SHORT: char = '\u{E003}';

fn rewrite_links(text: &str, resolve: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("{@link") {
        out.push_str(&rest[..start]);
        let after = &rest[start + "{@link".len()..];
        let Some(end) = after.find('}') else {
            out.push_str(&rest[start..]);
            rest = "";
            break;
        };
        let inner = after[..end].trim();
        out.push_str(&link(inner, resolve));
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    markdown_links(&out)
}

/// Where upstream's relative links (`/specification/…`) point.
const SITE: &str = "https://modelcontextprotocol.io";

/// Keeps Markdown links `[text](target)` as links (relative targets made absolute on the
/// specification site), protecting their brackets from escaping.
fn markdown_links(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find('[') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let parsed = after.find("](").and_then(|mid| {
            let label = &after[..mid];
            let tail = &after[mid + 2..];
            let end = tail.find(')')?;
            let target = &tail[..end];
            let ok = !label.contains(['[', ']', '\n'])
                && !target.is_empty()
                && !target.contains([' ', '(', '\n']);
            ok.then_some((label, target, mid + 2 + end + 1))
        });
        match parsed {
            Some((label, target, len)) => {
                let target = if target.starts_with('/') {
                    format!("{SITE}{target}")
                } else {
                    target.to_string()
                };
                out.push_str(&format!("{OPEN}{label}{MID}{target}{CLOSE}"));
                rest = &after[len..];
            }
            None => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn link(inner: &str, resolve: &dyn Fn(&str) -> Option<String>) -> String {
    // `X | label`, `X label`, and upstream's collapsed `Xlabel`: find the longest
    // prefix that names a definition.
    let (target, label) = match inner.split_once('|') {
        Some((t, l)) => (t.trim(), l.trim()),
        None => {
            let mut best = None;
            for (i, _) in inner.char_indices().skip(1) {
                if resolve(&inner[..i]).is_some() {
                    best = Some(i);
                }
            }
            if resolve(inner).is_some() {
                best = Some(inner.len());
            }
            match best {
                Some(i) => (&inner[..i], inner[i..].trim()),
                None => (inner, ""),
            }
        }
    };
    let Some(path) = resolve(target) else {
        return format!("`{}`", inner.replace('`', ""));
    };
    let text = if label.is_empty() {
        format!("`{target}`")
    } else if let Some(field_path) = label.strip_prefix('.') {
        format!("`{target}.{field_path}`")
    } else if label.contains('`') || label.contains(' ') {
        label.to_string()
    } else {
        format!("`{label}`")
    };
    if text == format!("`{path}`") {
        // rustdoc resolves `[`X`]` itself; an explicit target would be redundant.
        return format!("{OPEN}{text}{CLOSE_SHORT}");
    }
    format!("{OPEN}{text}{MID}{path}{CLOSE}")
}

fn escape_line(line: &str) -> String {
    // Split into code spans and text; only text is escaped. An unbalanced backtick is
    // escaped so that it cannot swallow the rest of the paragraph.
    let ticks = line.matches('`').count();
    let mut out = String::new();
    let mut in_code = false;
    let mut seen = 0;
    let mut text = String::new();
    for c in line.chars() {
        if c == '`' {
            seen += 1;
            if !in_code && seen == ticks && ticks % 2 == 1 {
                text.push_str("\\`");
                continue;
            }
            if !in_code {
                out.push_str(&escape_text(&std::mem::take(&mut text)));
            }
            in_code = !in_code;
            out.push(c);
        } else if in_code {
            out.push(c);
        } else {
            text.push(c);
        }
    }
    out.push_str(&escape_text(&text));
    out.replace(OPEN, "[")
        .replace(MID, "](")
        .replace(CLOSE, ")")
        .replace(CLOSE_SHORT, "]")
}

fn escape_text(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        if rest.starts_with(MID) {
            // A link target: copied as it is.
            let end = rest.find(CLOSE).unwrap_or(rest.len());
            out.push_str(&rest[..end]);
            rest = &rest[end..];
            continue;
        }
        if let Some(url_len) = url_at(rest) {
            let url = &rest[..url_len];
            let already_wrapped = out.ends_with('<') || out.ends_with("](");
            if already_wrapped {
                out.push_str(url);
                if rest[url_len..].starts_with('>') {
                    out.push('>');
                    rest = &rest[url_len + 1..];
                    continue;
                }
            } else {
                out.push('<');
                out.push_str(url);
                out.push('>');
            }
            rest = &rest[url_len..];
            continue;
        }
        let c = rest.chars().next().unwrap_or(' ');
        match c {
            '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            '<' => {
                // Keep autolinks `<https://…>`; escape anything that could be a tag.
                if url_at(&rest[1..]).is_some() {
                    out.push('<');
                } else {
                    out.push_str("&lt;");
                }
            }
            '>' => out.push_str("&gt;"),
            _ => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The length of a URL at the start of `s`, if one starts there.
fn url_at(s: &str) -> Option<usize> {
    if !(s.starts_with("https://") || s.starts_with("http://")) {
        return None;
    }
    let mut end = s
        .find(|c: char| {
            c.is_whitespace() || c == '<' || c == '>' || c == '`' || c == ')' || c == '"'
        })
        .unwrap_or(s.len());
    while end > 0 && s[..end].ends_with(['.', ',', ';', ':']) {
        end -= 1;
    }
    Some(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(name: &str) -> Option<String> {
        ["CallToolRequest", "Tool", "MetaObject", "Result"]
            .contains(&name)
            .then(|| {
                if name == "Result" {
                    "ResultObject".to_string()
                } else {
                    name.to_string()
                }
            })
    }

    #[test]
    fn links() {
        assert_eq!(render("See {@link Tool}.", &resolve), ["See [`Tool`]."]);
        assert_eq!(
            render("A {@link CallToolRequesttools/call} request", &resolve),
            ["A [`tools/call`](CallToolRequest) request"]
        );
        assert_eq!(
            render("{@link MetaObject`_meta` key naming rules}", &resolve),
            ["[`_meta` key naming rules](MetaObject)"]
        );
        assert_eq!(
            render("{@link Result}", &resolve),
            ["[`Result`](ResultObject)"]
        );
        assert_eq!(
            render("{@link Unknown.thing}", &resolve),
            ["`Unknown.thing`"]
        );
        assert_eq!(
            render("{@link Tool.outputSchema}", &resolve),
            ["[`Tool.outputSchema`](Tool)"]
        );
    }

    #[test]
    fn hostile_text() {
        assert_eq!(
            render("see https://x.org/a.", &resolve),
            ["see <https://x.org/a>."]
        );
        assert_eq!(render("a [b] c", &resolve), ["a \\[b\\] c"]);
        assert_eq!(render("x <b>y</b>", &resolve), ["x &lt;b&gt;y&lt;/b&gt;"]);
        assert_eq!(render("odd ` tick", &resolve), ["odd \\` tick"]);
        assert_eq!(render("`[a]` [b]", &resolve), ["`[a]` \\[b\\]"]);
        assert_eq!(
            render("```\ncode\n```", &resolve),
            ["```text", "code", "```"]
        );
        assert_eq!(
            render(
                "See [General fields: `_meta`](/specification/basic#meta) for notes",
                &resolve
            ),
            [
                "See [General fields: `_meta`](https://modelcontextprotocol.io/specification/basic#meta) for notes"
            ]
        );
        assert_eq!(
            render("[a](https://x.org/b)", &resolve),
            ["[a](https://x.org/b)"]
        );
        assert_eq!(
            render("a\n\n    indented", &resolve),
            ["a", "", "   indented"]
        );
    }
}
