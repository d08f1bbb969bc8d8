//! `cargo xtask diff` between two revisions of an official extension's schema: the tasks
//! extension's first and newest (`schema/ext/tasks/history/`), given as paths.

mod common;

use common::*;

#[test]
fn the_tasks_extensions_revisions_diff() {
    let root = repo();
    let revisions = sorted_files(&root.join("schema/ext/tasks/history"));
    let (first, last) = (&revisions[0], revisions.last().unwrap());
    let (first, last) = (first.to_str().unwrap(), last.to_str().unwrap());
    let run = xtask(&root, &["diff", first, last], &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    for expected in [
        "# MCP schema changes: 001-2026-05-11-0b65dc6 → 003-2026-08-21-e434597",
        // The status notification's method was renamed.
        "| `TaskStatusNotification.method` | both | server | \"notifications/tasks/status\" → \"notifications/tasks\"",
        // The methods, by overrides::MESSAGE_DIRECTIONS (an extension's schema has no
        // unions that say who sends what).
        "| `notifications/tasks/status` | older sender | server | Notification ServerToClient |",
        "| `tasks/list` | older sender | client | Request ClientToServer |",
        "| `tasks/result` | older sender | client | Request ClientToServer |",
        "| `tasks/update` | nobody | client | Request ClientToServer |",
        // `tasks/get` answers one of the task's five shapes, tagged by status.
        "| `GetTaskResult` | both | server | object → union",
        // `tasks/list` and `tasks/result` are gone.
        "| `ListTasksRequest` | nobody | client | object |",
        "| `GetTaskPayloadRequest` | nobody | client | object |",
        // The task's fields moved into the result itself, with their new names.
        "| `CreateTaskResult.task` | older receiver | — | was required |",
        "| `Task.ttlMs` | older sender | server | required |",
    ] {
        assert!(run.stdout.contains(expected), "{expected}\n{}", run.stdout);
    }
    let json = xtask(
        &root,
        &["diff", first, last, "--format", "json", "--breaking-only"],
        &[],
    );
    assert_eq!(json.code, 0, "{}", json.stderr);
    let value: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let text = value.to_string();
    assert!(text.contains("GetTaskResult"), "{text}");
    assert!(!text.contains("ListTasksRequest"), "breaks nobody: {text}");
}
