//! Streamed replies (`"stream": true`): the fake Messages API sends server-sent events as
//! the real one does, at a rate, several calls at once; quizz's client reads them, reports
//! how far the reply is and each question as soon as its object closes, and meets a
//! mid-stream `error` event and a cut stream with the failures it has for HTTP errors.

use std::time::Duration;

use quizz::llm::{HttpConfig, LlmError, Progress};
use serde_json::{Value, json};

use crate::llm_ask::{ask, ask_noting, expected, generation, messages, rounds, valid};
use crate::messages_fake::fake_messages::{FakeMessages, Reply};

/// A tool input of about `chars` characters: questions with long prompts.
fn long_input(chars: usize) -> Value {
    let questions: Vec<Value> = (0..chars / 100)
        .map(|i| json!({"id": format!("q{i}"), "prompt": "é \"quoted\" }] ".repeat(5)}))
        .collect();
    json!({"questions": questions})
}

/// The events of one streamed POST: (event name, data).
async fn events_of(url: &str, body: &Value) -> Vec<(String, Value)> {
    let text = reqwest::Client::new()
        .post(format!("{url}/v1/messages"))
        .json(body)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.split("\n\n")
        .filter(|e| !e.trim().is_empty())
        .map(|e| {
            let (name, data) = e.split_once('\n').unwrap();
            let name = name.strip_prefix("event: ").unwrap().to_string();
            let data = serde_json::from_str(data.strip_prefix("data: ").unwrap()).unwrap();
            (name, data)
        })
        .collect()
}

#[tokio::test]
async fn the_fake_streams_a_tool_call_as_the_api_does_and_answers_calls_at_once() {
    let input = long_input(4_000);
    // 2,000 tokens a second: each reply takes about half a second.
    let server =
        FakeMessages::sequence(vec![Reply::tool_input(input.clone()).streamed_at(2_000.0)]);
    let body = json!({"model": "m", "stream": true, "tool_choice": {"type": "tool", "name": "submit_quiz"},
                      "tools": [{"name": "submit_quiz"}], "messages": []});
    let url = server.url.clone();
    let calls: Vec<_> = (0..3)
        .map(|_| {
            let (url, body) = (url.clone(), body.clone());
            tokio::spawn(async move { events_of(&url, &body).await })
        })
        .collect();
    for call in calls {
        let events = call.await.unwrap();
        for (name, data) in &events {
            assert_eq!(data["type"], name.as_str(), "the event line names the data");
        }
        let kinds: Vec<&str> = events
            .iter()
            .map(|(n, _)| n.as_str())
            .filter(|n| *n != "ping")
            .collect();
        let deltas = kinds.len() - 5;
        assert!(deltas > 100, "{deltas} deltas");
        let mut want = vec!["message_start", "content_block_start"];
        want.extend(std::iter::repeat_n("content_block_delta", deltas));
        want.extend(["content_block_stop", "message_delta", "message_stop"]);
        assert_eq!(kinds, want);
        assert_eq!(events[1].0, "ping", "a ping follows message_start");
        assert_eq!(events[2].1["content_block"]["name"], "submit_quiz");
        assert_eq!(events[2].1["content_block"]["input"], json!({}));
        let written: String = events
            .iter()
            .filter_map(|(_, d)| d["delta"]["partial_json"].as_str())
            .collect();
        assert_eq!(written, input.to_string());
        let end = &events[events.len() - 2].1;
        assert_eq!(end["delta"]["stop_reason"], "tool_use");
        assert_eq!(
            end["usage"]["output_tokens"],
            written.chars().count().div_ceil(4)
        );
    }
    assert_eq!(
        server.max_in_flight(),
        3,
        "the three calls were answered at once"
    );
}

#[tokio::test]
async fn a_streamed_quiz_tells_each_question_before_its_end() {
    let server = FakeMessages::sequence(vec![Reply::tool_input(valid()).streamed_at(5_000.0)]);
    let (quiz, heard) = ask_noting(&messages(&server, generation())).await;
    assert_eq!(quiz.unwrap(), expected());
    assert_eq!(server.posts()[0].json()["stream"], true);
    let items: Vec<(usize, Value)> = heard
        .iter()
        .filter_map(|p| match p {
            Progress::Item {
                round: 0,
                array,
                index,
                value,
            } if array == "questions" => Some((*index, value.clone())),
            _ => None,
        })
        .collect();
    let questions = valid()["questions"].as_array().unwrap().clone();
    assert_eq!(
        items,
        [(0, questions[0].clone()), (1, questions[1].clone())]
    );
    let answered = heard
        .iter()
        .position(|p| matches!(p, Progress::Answered { .. }))
        .unwrap();
    let first_item = heard
        .iter()
        .position(|p| matches!(p, Progress::Item { .. }))
        .unwrap();
    assert!(first_item < answered, "{heard:?}");
    assert!(
        heard[..answered]
            .iter()
            .any(|p| matches!(p, Progress::Streaming { round: 0, .. })),
        "{heard:?}"
    );
}

#[tokio::test]
async fn an_overloaded_error_mid_stream_is_retried_as_a_529_is() {
    let server = FakeMessages::sequence(vec![
        Reply::tool_input(valid()).error_mid_stream(20, "overloaded_error", "Overloaded"),
        Reply::tool_input(valid()),
    ]);
    let (quiz, heard) = ask_noting(&messages(&server, generation())).await;
    assert_eq!(quiz.unwrap(), expected());
    assert_eq!(server.posts().len(), 2, "the stream was asked again");
    assert_eq!(
        rounds(&heard).len(),
        2,
        "one round, asked and answered: {heard:?}"
    );

    let server = FakeMessages::sequence(vec![Reply::tool_input(valid()).error_mid_stream(
        20,
        "overloaded_error",
        "Overloaded",
    )]);
    let err = ask(&messages(&server, generation())).await.unwrap_err();
    assert_eq!(err, LlmError::Overloaded { attempts: 4 });

    let server = FakeMessages::sequence(vec![Reply::tool_input(valid()).error_mid_stream(
        0,
        "invalid_request_error",
        "prompt is too long",
    )]);
    let err = ask(&messages(&server, generation())).await.unwrap_err();
    assert!(
        matches!(&err, LlmError::Request { status: 400, message } if message.contains("prompt is too long")),
        "{err:?}"
    );
    assert_eq!(server.posts().len(), 1, "not retried");
}

#[tokio::test]
async fn a_stream_cut_before_its_end_says_so() {
    let server = FakeMessages::sequence(vec![Reply::tool_input(valid()).cut_mid_stream(30)]);
    let err = ask(&messages(&server, generation())).await.unwrap_err();
    assert!(
        matches!(&err, LlmError::StreamCut { chars: 32, .. }),
        "{err:?}"
    );
    let line = err.to_line();
    assert!(
        line.contains("stopped after 32 characters, before its end"),
        "{line}"
    );
}

#[tokio::test]
async fn a_stream_slower_than_the_request_limit_times_out() {
    let server =
        FakeMessages::sequence(vec![Reply::tool_input(long_input(2_000)).streamed_at(20.0)]);
    let config = HttpConfig {
        request_timeout: Duration::from_secs(1),
        ..generation()
    };
    let err = ask(&messages(&server, config)).await.unwrap_err();
    assert!(matches!(err, LlmError::Timeout { .. }), "{err:?}");
}
