//! `ProtocolVersion` and version negotiation in both lifecycle eras.

use mcp_spec_types::ProtocolVersion as V;
use mcp_spec_types::version::Era;

#[test]
fn parse_display_order() {
    let all: Vec<&str> = V::ALL.iter().map(|v| v.as_str()).collect();
    assert_eq!(
        all,
        [
            "2024-11-05",
            "2025-03-26",
            "2025-06-18",
            "2025-11-25",
            "2026-07-28",
            "draft"
        ]
    );
    for v in V::ALL {
        assert_eq!(v.to_string().parse::<V>().unwrap(), *v);
    }
    assert!(V::V2024_11_05 < V::V2025_06_18 && V::V2026_07_28 < V::Draft);
    assert_eq!(V::LATEST_RELEASED, V::V2026_07_28);
    assert!(!V::Draft.is_released() && V::V2025_11_25.is_released());
    let e = "2024-10-07".parse::<V>().unwrap_err();
    assert!(e.to_string().contains("`2025-06-18`"), "{e}");
    assert_eq!(V::V2025_11_25.era(), Era::Initialize);
    assert_eq!(V::V2026_07_28.era(), Era::Discover);
    assert_eq!(V::Draft.era(), Era::Discover);
}

#[test]
fn initialize_era() {
    let server = [V::V2025_03_26, V::V2025_06_18];
    // The requested version when the server supports it.
    assert_eq!(
        V::answer_initialize("2025-03-26", &server),
        Some(V::V2025_03_26)
    );
    // Otherwise the newest the server supports, also for versions this crate never heard of.
    assert_eq!(
        V::answer_initialize("2025-11-25", &server),
        Some(V::V2025_06_18)
    );
    assert_eq!(
        V::answer_initialize("1999-01-01", &server),
        Some(V::V2025_06_18)
    );
    // A discover-era version is never an answer to `initialize`.
    assert_eq!(
        V::answer_initialize("2026-07-28", &[V::V2025_11_25, V::V2026_07_28]),
        Some(V::V2025_11_25)
    );
    assert_eq!(V::answer_initialize("2025-06-18", &[V::V2026_07_28]), None);
    // The client accepts what it supports, else disconnects.
    assert_eq!(
        V::accept_initialize("2025-06-18", &server),
        Ok(V::V2025_06_18)
    );
    let e = V::accept_initialize("2024-11-05", &server).unwrap_err();
    assert_eq!(e.offered, ["2024-11-05"]);
}

#[test]
fn discover_era() {
    let server = [V::V2026_07_28];
    assert_eq!(V::check_request("2026-07-28", &server), Ok(V::V2026_07_28));
    let e = V::check_request("draft", &server).unwrap_err();
    assert_eq!(e.supported, [V::V2026_07_28]);
    assert!(V::check_request("2025-06-18", &[V::V2025_06_18, V::V2026_07_28]).is_err());
    // The client picks the newest mutual version, skipping ones it does not know.
    let offered = ["2026-07-28", "2027-01-01", "draft"];
    assert_eq!(
        V::choose(&offered, &[V::V2026_07_28, V::Draft]),
        Ok(V::Draft)
    );
    assert_eq!(V::choose(&offered, &[V::V2026_07_28]), Ok(V::V2026_07_28));
    assert!(V::choose(&offered, &[V::V2025_06_18]).is_err());
}
