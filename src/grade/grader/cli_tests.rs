//! Every result shape of DESIGN §3, as the CLI prints them.

use super::*;

fn run(code: i32, stdout: &str) -> Result<OpenGrade, GradeError> {
    interpret_output("ANTHROPIC_AUTH_TOKEN", Some(code), stdout, "")
}

#[test]
fn a_structured_output_is_the_grade() {
    let out = r#"{"type":"result","subtype":"success","is_error":false,"structured_output":{"score":80,"feedback":"good"},"result":"{}","total_cost_usd":0.01}"#;
    let g = run(0, out).unwrap();
    assert_eq!((g.score, g.feedback.as_str()), (80, "good"));
}

#[test]
fn an_api_error_dressed_as_success_is_a_failure() {
    let out = r#"{"type":"result","subtype":"success","is_error":true,"api_error_status":401,"result":"Not logged in · Please run /login"}"#;
    let e = run(1, out).unwrap_err().to_string();
    assert!(e.contains("HTTP 401") && e.contains("Not logged in"), "{e}");
    assert!(e.contains("credentials from ANTHROPIC_AUTH_TOKEN"), "{e}");
    let out = r#"{"type":"result","subtype":"success","is_error":true,"api_error_status":429,"result":"API Error: Request rejected (429) · slow down"}"#;
    let e = run(1, out).unwrap_err().to_string();
    assert!(e.contains("rate limited") && e.contains("slow down"), "{e}");
}

#[test]
fn no_structured_output_is_a_failure_with_the_reply() {
    let out = r#"{"type":"result","subtype":"success","is_error":false,"result":"I refuse to use tools."}"#;
    let e = run(0, out).unwrap_err();
    assert!(matches!(e, GradeError::CliNoStructuredOutput { .. }));
    assert!(e.to_string().contains("I refuse"), "{e}");
}

#[test]
fn turn_and_schema_limits_are_named() {
    let out = r#"{"type":"result","subtype":"error_max_turns","is_error":true,"errors":["Reached maximum number of turns (3)"]}"#;
    let e = run(1, out).unwrap_err().to_string();
    assert!(
        e.contains("error_max_turns") && e.contains("maximum number of turns"),
        "{e}"
    );
    let out =
        r#"{"type":"result","subtype":"error_max_structured_output_retries","is_error":true}"#;
    let e = run(1, out).unwrap_err().to_string();
    assert!(e.contains("never matched the grade schema"), "{e}");
}

#[test]
fn an_out_of_range_structured_output_is_rejected() {
    let out = r#"{"type":"result","subtype":"success","is_error":false,"structured_output":{"score":150,"feedback":"x"}}"#;
    assert!(matches!(run(0, out), Err(GradeError::InvalidOutput { .. })));
}

#[test]
fn the_last_result_line_counts_and_garbage_is_explained() {
    let out = "noise\n{\"type\":\"system\"}\n{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"structured_output\":{\"score\":5,\"feedback\":\"f\"}}\n";
    assert_eq!(run(0, out).unwrap().score, 5);
    let e = interpret_output("x", Some(2), "", "error: unknown option '--json-schema'\n")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("exit status 2") && e.contains("unknown option"),
        "{e}"
    );
    let e = interpret_output("x", None, "", "").unwrap_err().to_string();
    assert!(e.contains("signal"), "{e}");
}
