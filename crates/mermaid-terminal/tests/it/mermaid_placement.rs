//! A top-down flowchart whose barycentre placement lets a chain of decisions drift
//! sideways until the layers add up past the width: the second placement (boxes lined up
//! on their median neighbours) draws it instead of listing it.

use crate::mermaid_common::{at, text};
use mermaid_terminal::Form;

/// A request handler as a quiz bot writes it: four checks in a row, each with its own
/// early exit, long Rust calls as labels.
const CHAIN_OF_DECISIONS: &str = "flowchart TD
    req([POST /api/v1/orders]) --> auth{authenticate_bearer(&headers)?}
    auth -->|missing| e401[401 Unauthorized]
    auth -->|ok| parse{serde_json::from_slice::<NewOrder>(&body)}
    parse -->|err| e400[400 Bad Request]
    parse -->|ok| stock{inventory.reserve(&order.items).await}
    stock -->|short| e409[409 Conflict: out of stock]
    stock -->|reserved| pay{payments.charge(order.total_cents)}
    pay -->|declined| e402[402 Payment Required]
    pay -->|charged| save[orders_repo.insert(&order).await?]
    save --> ok[201 Created]";

#[test]
fn a_chain_of_four_decisions_is_drawn_at_75_columns() {
    let r = at(CHAIN_OF_DECISIONS, 75);
    let all = text(&r);
    assert_eq!(r.form, Form::Drawing, "{all}");
    assert!(r.lines.iter().all(|l| l.width() <= 75), "{all}");
    // top-down as written, not turned
    assert!(!all.contains("drawn left to right"), "{all}");
    for label in [
        "authenticate_bearer(&headers)?",
        "inventory.reserve(&order.items).await",
        "payments.charge(order.total_cents)",
        "402 Payment Required",
        "orders_repo.insert(&order).await?",
        "201 Created",
        "declined",
        "reserved",
    ] {
        assert!(all.contains(label), "{label:?} missing:\n{all}");
    }
}

/// Each decision's edge to the next one leaves from its centre, where the next decision is
/// lined up: the chain runs down straight, with no jog (`┌┘`) under any decision.
#[test]
fn the_edge_down_a_chain_of_decisions_runs_straight() {
    let all = text(&at(CHAIN_OF_DECISIONS, 75));
    assert!(!all.contains("┌┘"), "{all}");
}

/// A release flow as a quiz bot writes it, left to right, drawn top-down at 75: the
/// `deploy()` edge runs back up over two other edges' verticals.
const RELEASE_GATE: &str = "stateDiagram-v2
    direction LR
    state deploy_gate <<choice>>
    [*] --> Staging: release.created
    state Staging {
        [*] --> Pending
        Pending --> Verifying: start_checks()
        Verifying --> NeedsFixes: verify(smoke_tests_failed)
        NeedsFixes --> Verifying: patch(hotfix build)
        Verifying --> Verified: verify(passed)
    }
    Staging --> deploy_gate: deploy()
    deploy_gate --> Production: verified && window open
    deploy_gate --> Staging: window closed
    Staging --> Aborted: abort()
    Aborted --> Staging: resume()
    Production --> [*]";

/// A one-line label written on its own horizontal keeps a cell of that line on each side:
/// right against another edge's crossing (`deploy()┼`) it would read as that edge's.
#[test]
fn a_label_on_its_own_horizontal_keeps_a_line_cell_each_side() {
    let r = at(RELEASE_GATE, 75);
    let all = text(&r);
    assert_eq!(r.form, Form::Drawing, "{all}");
    assert!(all.contains("─deploy()─"), "{all}");
}

/// A handler and its store in one source file, left to right, the edge inside the frame
/// labelled with a sentence a quiz bot writes.
const LABEL_INSIDE_AN_LR_FRAME: &str = r#"flowchart LR
    subgraph api ["src/api/orders.rs"]
        parse["parse_order(&body)"] -->|"validated against schema v2, amounts in cents"| save["orders.insert(&order)"]
    end
    save --> db[("orders table")]"#;

/// Left to right, a label wrapped to several lines stands over its edge: the frame round
/// the edge grows to hold it, rather than the label leaving the drawing as a footnote.
#[test]
fn a_wrapped_label_inside_a_left_to_right_frame_stays_beside_its_edge() {
    let r = at(LABEL_INSIDE_AN_LR_FRAME, 80);
    let all = text(&r);
    assert_eq!(r.form, Form::Drawing, "{all}");
    assert!(!all.contains("drawn top-down"), "{all}");
    assert!(r.lines.iter().all(|l| l.width() <= 80), "{all}");
    assert!(!all.contains("1 validated"), "a footnote:\n{all}");
    for piece in ["validated", "against schema", "v2, amounts in", "cents"] {
        assert!(all.contains(piece), "{piece:?} missing:\n{all}");
    }
}

/// A verifier class as a quiz bot writes it: one method signature far wider than the box.
const LONG_METHOD: &str = "classDiagram
    class WebhookVerifier {
        -secret: HmacSecretKey
        -clock: SystemClock
        +verify_signature(payload: &[u8], signature_header: &str, now: SystemTime) Result~(), VerifyError~
    }
    class GithubApp {
        +app_id: u64
    }
    GithubApp --> WebhookVerifier : verifies with";

/// A member wrapped over several lines continues indented under its first, so its later
/// lines do not read as members of their own; every piece of it is still there.
#[test]
fn a_wrapped_class_member_continues_indented() {
    let r = at(LONG_METHOD, 75);
    let all = text(&r);
    assert_eq!(r.form, Form::Drawing, "{all}");
    let rows: Vec<&str> = all.lines().collect();
    let first = rows
        .iter()
        .position(|l| l.contains("│ +verify_signature("))
        .expect("the method's first line");
    let later: Vec<&str> = rows[first + 1..]
        .iter()
        .take_while(|l| !l.contains('└'))
        .copied()
        .collect();
    assert!(later.len() > 1, "{all}");
    for line in &later {
        assert!(
            line.trim_start().starts_with("│   "),
            "{line:?} not indented:\n{all}"
        );
    }
    for piece in [
        "&[u8],",
        "signature_header:",
        "SystemTime)",
        "Result<(), VerifyError>",
    ] {
        assert!(all.contains(piece), "{piece:?} missing:\n{all}");
    }
}

/// Two source files as subgraphs side by side, top-down; the edge into the second enters
/// through its top border, left of where its title would start.
const TITLE_BEHIND_AN_EDGE: &str = "flowchart TD
    subgraph api [Webhook intake: src/http/webhook.rs]
        verify[verify_signature(body, sig)] --> parse[parse_event(&body)]
        parse --> kind{event kind known?}
        kind -->|no, log and skip| skip[metrics.skipped += 1]
        skip --> verify
    end
    subgraph queue [Outbound queue: src/queue/jobs.rs]
        enqueue[enqueue_job(kind, &payload)] --> ack[respond_accepted(id)]
    end
    kind -->|yes| enqueue";

/// A frame title pushed right by an edge crossing the top border wraps narrower (a line
/// more under the border) before the frame grows wider: the graph draws at 60 columns.
#[test]
fn a_frame_title_behind_an_edge_wraps_before_the_frame_widens() {
    let r = at(TITLE_BEHIND_AN_EDGE, 60);
    let all = text(&r);
    assert_eq!(r.form, Form::Drawing, "{all}");
    assert!(r.lines.iter().all(|l| l.width() <= 60), "{all}");
    for piece in [
        "Outbound",
        "queue:",
        "src/queue/",
        "jobs.rs",
        "Webhook intake:",
    ] {
        assert!(all.contains(piece), "{piece:?} missing:\n{all}");
    }
}
